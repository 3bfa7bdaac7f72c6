import type { TAuditRow } from '@sc/shared/audit';
import type { TPaginated } from '@sc/shared/list';

export function auditRow(id: number, overrides: Partial<TAuditRow> = {}): TAuditRow {
  return {
    id,
    created: '2026-11-20T10:15:00Z',
    action: 'patient.updated',
    action_group: 'patients',
    actor: { id: 7, name: 'Asha Rao', user_type: 'ADMIN' },
    impersonator: null,
    target_type: 'patient',
    target_id: String(100 + id),
    organization: { id: 1, name: 'City Clinic' },
    outcome: 'success',
    ip: '10.0.0.5',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
    details: {},
    changes: [{ field: 'mobile', before: '+91-9000000001', after: '+91-9000000002' }],
    ...overrides,
  };
}

export function auditPage(
  results: TAuditRow[],
  { count = results.length, next = null, previous = null, count_capped }: Partial<TPaginated<TAuditRow>> = {},
): TPaginated<TAuditRow> {
  return { count, next, previous, results, ...(count_capped ? { count_capped } : {}) };
}
