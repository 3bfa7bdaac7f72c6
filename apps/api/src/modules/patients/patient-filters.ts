// What an exam list asks of its exams' patients (part 3 §7): a search term in the patient's name, mobile or e-mail
// (or an exam's id), and an age range. Each is `patient_id IN (…)` on the list's own column, so the list's count
// needs no join and the patients' indexes serve the subquery. The cervical and ORCA lists share them.
import { and, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { patients } from '../../db/schema/index.ts';
import { patientSearchCondition } from './patients.queries.ts';

const patientIn = (patientId: AnyColumn, where: SQL | undefined): SQL =>
  sql`${patientId} in (select ${patients.id} from ${patients} where ${where})`;

/** Rows whose patient matches `term` (patientSearchCondition) or, for a whole number, the row with that id. */
export function patientOrIdSearch(
  patientId: AnyColumn,
  id: AnyColumn,
  term: string | undefined,
): SQL | undefined {
  const trimmed = term?.trim();
  if (!trimmed) return undefined;
  const byPatient = patientIn(patientId, patientSearchCondition(trimmed));
  return /^\d{1,9}$/.test(trimmed) ? sql`(${byPatient} or ${id} = ${Number(trimmed)})` : byPatient;
}

/** Rows whose patient's age lies in [min, max] (an end left out is open); undefined when both are. */
export function patientAgeCondition(patientId: AnyColumn, min?: number, max?: number): SQL | undefined {
  if (min === undefined && max === undefined) return undefined;
  return patientIn(
    patientId,
    and(
      min === undefined ? undefined : sql`${patients.age} >= ${min}`,
      max === undefined ? undefined : sql`${patients.age} <= ${max}`,
    ),
  );
}
