// The re-certification list's state in the URL and its `GET organization/user/` query (part 2 §2.10, §4, §7).
// The tabs filter the certificate's expiry date: All Time from RECERT_ALL_TIME_START, Last 30 Days from today minus
// 30 days; both run to RECERT_EXPIRY_DAYS_BEFORE days ahead, so a certificate that may be renewed now (it expires
// within 30 days) is listed with the expired ones. A custom range is the expiry dates chosen, as chosen.
import dayjs from 'dayjs';
import { z } from 'zod';
import { RECERT_ALL_TIME_START, RECERT_EXPIRY_DAYS_BEFORE } from '@sc/shared/constants';
import { addIsoDays } from '@sc/shared/scans';
import type { TOrganizationUserListParams } from '@sc/shared/users';
import { LAST_DAYS, toApiDate } from '../../../components/list/periods.ts';
import { listParamsSchema } from '../../../components/list/useListParams.ts';

export const ZReCertificationParams = listParamsSchema({
  organization: z.coerce.number().int().positive().optional().catch(undefined),
  /** The chosen organization's name, so the picker shows it after a reload. */
  organization_name: z.string().max(300).optional().catch(undefined),
});
export type TReCertificationState = z.infer<typeof ZReCertificationParams>;

/** Soonest expiry first: the certificates to renew first. */
export const RECERTIFICATION_DEFAULT_ORDERING = 'certificate_expiry_date';

/** The expiry dates a tab selects (YYYY-MM-DD, inclusive). */
export function expiryWindow(
  state: Pick<TReCertificationState, 'period' | 'from' | 'to'>,
  today: string,
): { after: string; before: string } | null {
  const ahead = addIsoDays(today, RECERT_EXPIRY_DAYS_BEFORE);
  switch (state.period) {
    case '30':
      return { after: addIsoDays(today, -LAST_DAYS), before: ahead };
    case 'custom_range':
      if (state.from) return { after: state.from, before: state.to ?? state.from };
      return { after: RECERT_ALL_TIME_START, before: ahead };
    default:
      return { after: RECERT_ALL_TIME_START, before: ahead };
  }
}

/** URL state → `GET organization/user/` parameters: certified users by expiry date. */
export function toReCertificationQuery(
  state: TReCertificationState,
  today: string = toApiDate(dayjs()),
): TOrganizationUserListParams {
  const window = expiryWindow(state, today);
  return {
    page: state.page,
    limit: state.limit,
    ordering: state.ordering,
    ...(state.search ? { search: state.search } : {}),
    ibe_training_status: 'CERTIFIED',
    ...(state.organization === undefined ? {} : { organization_id: state.organization }),
    ...(window ? { certificate_expiry_date_after: window.after, certificate_expiry_date_before: window.before } : {}),
  };
}
