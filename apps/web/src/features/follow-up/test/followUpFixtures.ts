import type { TFollowUpCase, TFollowUpEntry, TFollowUpRow } from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';

export function caseRow(id: number, over: Partial<TFollowUpRow> = {}): TFollowUpRow {
  return {
    id,
    patient: { id: 40 + id, first_name: 'Maria', last_name: `Santos ${id}`, mobile: '+63-9171234567' },
    organization: { id: 3, name: 'Bayanihan Clinic', timezone: 'Asia/Manila' },
    modalities: ['BREAST'],
    status: 'OPEN',
    opened: '2026-11-01T02:00:00Z',
    last_action: { kind: 'OPENED', at: '2026-11-01T02:00:00Z' },
    next_due: '2026-11-08',
    overdue: true,
    days_overdue: 3,
    assigned_user: null,
    outcome: null,
    ...over,
  };
}

export function entry(id: number, over: Partial<TFollowUpEntry> = {}): TFollowUpEntry {
  return {
    id,
    kind: 'OPENED',
    at: '2026-11-01T02:00:00Z',
    by: null,
    from_status: null,
    to_status: 'OPEN',
    data: { modality: 'BREAST' },
    note: null,
    corrects: null,
    corrected_by: [],
    ...over,
  };
}

export function caseDetail(id: number, over: Partial<TFollowUpCase> = {}): TFollowUpCase {
  return {
    ...caseRow(id),
    status_changed: '2026-11-01T02:00:00Z',
    site: null,
    diagnosis_date: null,
    diagnosis_facility: null,
    closed: null,
    sources: [{ kind: 'SCAN', id: 900, modality: 'BREAST', date_time: '2026-11-01T02:00:00Z' }],
    timeline: [entry(1)],
    next_statuses: ['CONTACTED', 'REFERRED', 'LOST_TO_FOLLOW_UP', 'DECLINED'],
    ...over,
  };
}

export const casePage = (results: TFollowUpRow[], count = results.length): TPaginated<TFollowUpRow> => ({
  count,
  next: null,
  previous: null,
  results,
});
