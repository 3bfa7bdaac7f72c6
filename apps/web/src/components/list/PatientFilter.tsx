// From a patient to their records (issue 23.10): the scan and exam lists take `?patient=<id>` (the API's `patient`
// filter, part 2 §7) with `patient_name` for the chip, show the filter as a removable chip, and the patient list and
// dialog link to each list the role may open. A patient outside the caller's scope lists nothing: the API filters
// within the caller's scope.
import { Badge, CloseButton } from '@mantine/core';
import { z } from 'zod';
import type { TUserType } from '@sc/shared/roles';
import { canOpenMenuKey, menuLabel } from '../../app/routeAccess.ts';

/** The URL fields of the patient filter; spread into a list's listParamsSchema. */
export const patientFilterParams = {
  patient: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  /** Only the chip's words: the filter is the id. */
  patient_name: z.string().max(200).optional().catch(undefined),
};

export const CLEARED_PATIENT_FILTER = { patient: undefined, patient_name: undefined };

/** The lists of a patient's records, in menu order, with the menu's words. */
const RECORD_LISTS = ['scan', 'cervaical', 'orca'] as const;

export type PatientRecordLink = { key: (typeof RECORD_LISTS)[number]; label: string; to: string };

/** The record lists `role` may open, each filtered to this patient. */
export function patientRecordLinks(
  role: TUserType,
  patient: { id: number; name: string },
): PatientRecordLink[] {
  const query = new URLSearchParams({ patient: String(patient.id) });
  if (patient.name) query.set('patient_name', patient.name);
  return RECORD_LISTS.filter((key) => canOpenMenuKey(role, key)).map((key) => ({
    key,
    label: menuLabel(key),
    to: `/${key}?${query.toString()}`,
  }));
}

/** 'Patient: Asha Rao ×' above a list filtered to one patient; the × shows every patient's records again. */
export function PatientFilterChip({
  patient,
  name,
  onRemove,
}: {
  patient: number | undefined;
  name: string | undefined;
  onRemove: () => void;
}) {
  if (patient === undefined) return null;
  const label = `Patient: ${name || `#${patient}`}`;
  return (
    <Badge
      size="lg"
      variant="light"
      radius="xl"
      tt="none"
      fw={500}
      pr={4}
      rightSection={
        <CloseButton
          size="xs"
          radius="xl"
          aria-label={`Remove filter ${label}`}
          onClick={onRemove}
          data-testid="patient-filter-remove"
        />
      }
      data-testid="patient-filter-chip"
    >
      {label}
    </Badge>
  );
}
