// Follow-up rows → API shapes (ZFollowUpRow, ZFollowUpCase) and CSV records. Overdue is read from due_at (the instant
// the clinic's calendar makes the case overdue); days overdue count the organization's local days past the due date.
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import {
  FOLLOW_UP_ENTRY_LABELS,
  FOLLOW_UP_MODALITY_LABELS,
  FOLLOW_UP_MOVES,
  FOLLOW_UP_OUTCOME_LABELS,
  FOLLOW_UP_STATUS_LABELS,
  SOURCE_MODALITY,
  daysBetween,
  type TFollowUpCase,
  type TFollowUpEntry,
  type TFollowUpRow,
} from '@sc/shared/follow-up';
import { csvDateTime } from '../../http/csv-stream.ts';
import { localDate } from '../../http/period.ts';
import type { CaseListRow, caseSources, caseTimeline } from './follow-up.queries.ts';

const nameOf = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

/** Whether the case is overdue at `now`, and by how many of the organization's local days. */
export function overdueOf(row: Pick<CaseListRow, 'dueAt' | 'nextDue' | 'organizationTimezone'>, now: Date) {
  if (!row.dueAt || !row.nextDue || row.dueAt.getTime() > now.getTime()) return { overdue: false, days: 0 };
  const today = localDate(now, row.organizationTimezone ?? DEFAULT_TIMEZONE);
  return { overdue: true, days: Math.max(1, daysBetween(row.nextDue, today)) };
}

export function presentCaseRow(row: CaseListRow, now: Date): TFollowUpRow {
  const { overdue, days } = overdueOf(row, now);
  return {
    id: row.id,
    patient: {
      id: row.patientId,
      first_name: row.patientFirstName,
      last_name: row.patientLastName,
      mobile: row.patientMobile,
    },
    organization:
      row.organizationId === null
        ? null
        : { id: row.organizationId, name: row.organizationName ?? '', timezone: row.organizationTimezone ?? DEFAULT_TIMEZONE },
    modalities: row.modalities,
    status: row.status,
    opened: row.openedAt.toISOString(),
    last_action: row.lastActionKind && row.lastActionAt ? { kind: row.lastActionKind, at: row.lastActionAt.toISOString() } : null,
    next_due: row.nextDue,
    overdue,
    days_overdue: days,
    assigned_user:
      row.assignedUserId === null ? null : { id: row.assignedUserId, name: nameOf(row.assigneeFirstName, row.assigneeLastName) },
    outcome: row.outcome,
  };
}

type SourceRow = Awaited<ReturnType<typeof caseSources>>[number];
type EntryRow = Awaited<ReturnType<typeof caseTimeline>>[number];

export function presentEntry(e: EntryRow): TFollowUpEntry {
  return {
    id: e.id,
    kind: e.kind,
    at: e.created.toISOString(),
    by: e.actorId === null ? null : { id: e.actorId, name: nameOf(e.actorFirstName, e.actorLastName) },
    from_status: e.fromStatus,
    to_status: e.toStatus,
    data: e.data,
    note: e.note,
    corrects: e.correctsId,
    corrected_by: (e.correctedBy ?? []).map(Number),
  };
}

export function presentCase(row: CaseListRow, sources: SourceRow[], timeline: EntryRow[], now: Date): TFollowUpCase {
  return {
    ...presentCaseRow(row, now),
    status_changed: row.statusChanged.toISOString(),
    site: row.outcomeSite,
    diagnosis_date: row.diagnosisDate,
    diagnosis_facility: row.diagnosisFacility,
    closed: row.closedAt?.toISOString() ?? null,
    sources: sources.map((s) => ({
      kind: s.kind,
      id: s.id,
      modality: SOURCE_MODALITY[s.kind],
      date_time: s.dateTime.toISOString(),
    })),
    timeline: timeline.map(presentEntry),
    next_statuses: [...FOLLOW_UP_MOVES[row.status]],
  };
}

/** One CSV record in FOLLOW_UP_CSV_HEADER's order; times in the reader's zone, dates as stored. */
export function caseCsvRecord(row: CaseListRow, now: Date, zone: string): string[] {
  const r = presentCaseRow(row, now);
  return [
    String(r.id),
    nameOf(r.patient.first_name, r.patient.last_name),
    r.patient.mobile ?? '',
    r.organization?.name ?? '',
    r.modalities.map((m) => FOLLOW_UP_MODALITY_LABELS[m]).join(', '),
    csvDateTime(row.openedAt, zone),
    r.last_action ? FOLLOW_UP_ENTRY_LABELS[r.last_action.kind] : '',
    csvDateTime(row.lastActionAt, zone),
    r.next_due ?? '',
    r.overdue ? `Yes (${r.days_overdue} days)` : 'No',
    FOLLOW_UP_STATUS_LABELS[r.status],
    r.assigned_user?.name ?? '',
    r.outcome ? FOLLOW_UP_OUTCOME_LABELS[r.outcome] : '',
  ];
}
