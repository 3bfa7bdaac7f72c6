// How the audit screen and the History tabs word a row: who (and as whom), the action, the target and a changed value.
import { AUDIT_GROUP_LABELS, AUDIT_TARGET_LABELS, AUDIT_TARGET_TYPES, type TAuditRow } from '@sc/shared/audit';
import { ROLE_LABELS } from '@sc/shared/roles';

type Person = TAuditRow['actor'];

/** The row's actor with no user: a job of the system, or a sign-in by a name that matched no user. */
export const SYSTEM_ACTOR = 'System';

/** 'Asha Rao (Super Admin)'; 'System' for no one. */
export function personLabel(person: Person): string {
  if (!person) return SYSTEM_ACTOR;
  return person.user_type ? `${person.name} (${ROLE_LABELS[person.user_type]})` : person.name;
}

/**
 * Who did it, in words: under impersonation the person at the keyboard is the impersonator, acting as the actor, so
 * the row reads 'Asha Rao (Super Admin) as Ravi Kumar (ORG Admin)': `who` is the impersonator and `as` the actor.
 * Without impersonation `who` is the actor and `as` is absent.
 */
export function whoOf(row: Pick<TAuditRow, 'actor' | 'impersonator'>): { who: string; as?: string } {
  return row.impersonator ? { who: personLabel(row.impersonator), as: personLabel(row.actor) } : { who: personLabel(row.actor) };
}

/** 'patient.updated' → 'Patient updated'; 'follow_up.case.read' → 'Follow up case read'. */
export function actionLabel(action: string): string {
  const words = action.replace(/[._]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : action;
}

export const groupLabel = (row: Pick<TAuditRow, 'action_group'>): string => AUDIT_GROUP_LABELS[row.action_group];

const isTargetType = (type: string): type is (typeof AUDIT_TARGET_TYPES)[number] =>
  (AUDIT_TARGET_TYPES as readonly string[]).includes(type);

/** 'Patient 42'; the type's key when the contract names no label; '' without a target. */
export function targetLabel(row: Pick<TAuditRow, 'target_type' | 'target_id'>): string {
  if (!row.target_type) return '';
  const type = isTargetType(row.target_type) ? AUDIT_TARGET_LABELS[row.target_type] : row.target_type;
  return row.target_id ? `${type} ${row.target_id}` : type;
}

/** The console's page of a target, where it has one (an organization's page); records opened in dialogs have none. */
export function targetPath(row: Pick<TAuditRow, 'target_type' | 'target_id'>): string | undefined {
  if (row.target_type === 'organization' && row.target_id && /^\d+$/.test(row.target_id)) {
    return `/organization/${row.target_id}`;
  }
  return undefined;
}

/** The em dash a missing value reads as. */
export const NO_VALUE = '—';

/** A changed value as text: none as an em dash, text as it is, a number or a flag as its text, an object as JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return NO_VALUE;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value, null, 2);
}
