// The case dialog's action forms, checked as the API checks them: the shared schema (ZFollowUpAction) and the rules
// that need the case (followUpActionProblems), so the console says what the API would before it is asked.
import dayjs from 'dayjs';
import {
  ZFollowUpAction,
  followUpActionProblems,
  type TFollowUpAction,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import { ApiError } from '../../../api/client.ts';

/** Form values as the inputs hold them: '' for an empty field. */
export type TActionValues = Record<string, string>;

const FIELDS_BY_KIND: Record<TFollowUpAction['kind'], readonly string[]> = {
  CONTACT_ATTEMPT: ['method', 'result', 'note'],
  REFERRAL: ['facility', 'referral_date', 'appointment_date', 'note'],
  NOTE: ['note'],
  STATUS_CHANGE: ['status', 'outcome', 'site', 'diagnosis_date', 'facility', 'note'],
  CORRECTION: ['corrects', 'note', 'outcome', 'site', 'diagnosis_date', 'facility'],
};

/** The request body of a form: empty optional fields left out, `corrects` a number. */
export function actionBody(kind: TFollowUpAction['kind'], values: TActionValues): Record<string, unknown> {
  const body: Record<string, unknown> = { kind };
  for (const field of FIELDS_BY_KIND[kind]) {
    const value = values[field] ?? '';
    if (value === '') continue;
    body[field] = field === 'corrects' ? Number(value) : value;
  }
  return body;
}

/** A calendar day of an instant in a time zone (the positive screen's local date in the organization's zone). */
export function localDate(iso: string, timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date(iso));
  } catch {
    return dayjs(iso).format('YYYY-MM-DD');
  }
}

/**
 * field → message for a form, empty when it may be sent: the schema's messages first, then the case's rules.
 * Returns the parsed action with it.
 */
export function checkAction(
  kind: TFollowUpAction['kind'],
  values: TActionValues,
  kase: { status: TFollowUpStatus; openedLocalDate: string },
  today: string = dayjs().format('YYYY-MM-DD'),
): { action: TFollowUpAction | null; errors: Record<string, string> } {
  const parsed = ZFollowUpAction.safeParse(actionBody(kind, values));
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'non_field_errors');
      errors[field] ??= issue.message;
    }
    return { action: null, errors };
  }
  return { action: parsed.data, errors: followUpActionProblems(parsed.data, kase, today) };
}

/** The API's field errors (DRF: field → [messages]) as field → first message; empty for other errors. */
export function apiFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const errors: Record<string, string> = {};
  for (const [field, value] of Object.entries(error.body)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') errors[field === 'detail' ? 'non_field_errors' : field] = first;
  }
  return errors;
}
