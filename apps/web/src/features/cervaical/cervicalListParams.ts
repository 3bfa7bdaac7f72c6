// The cervical list's state in the URL (part 3 §2) and its translation into `GET cervaical/` parameters. The filter
// panel's fields are counted for the badge; `device` is also the `?device=` link parameter.
import { z } from 'zod';
import { REVIEWER_STATUSES } from '@sc/shared/constants';
import { SCAN_AGE_FILTER } from '@sc/shared/scans';
import { patientFilterParams } from '../../components/list/PatientFilter.tsx';
import { periodToQuery } from '../../components/list/periods.ts';
import { listParamsSchema } from '../../components/list/useListParams.ts';
import type { TCervicalQuery } from './cervical.api.ts';

const yesNo = () => z.enum(['yes', 'no']).optional().catch(undefined);
const age = () =>
  z.coerce.number().int().min(SCAN_AGE_FILTER.min).max(SCAN_AGE_FILTER.max).optional().catch(undefined);
const status = () => z.enum(REVIEWER_STATUSES).optional().catch(undefined);

export const ZCervicalListParams = listParamsSchema({
  reviewer1: status(),
  reviewer2: status(),
  device: z.string().trim().min(1).max(64).optional().catch(undefined),
  technician: z.coerce.number().int().positive().optional().catch(undefined),
  technician_label: z.string().max(200).optional().catch(undefined),
  survivor: yesNo(),
  positive: yesNo(),
  findings: yesNo(),
  symptoms: yesNo(),
  history: yesNo(),
  disagreement: z.enum(['pending', 'adjudicated', 'all']).optional().catch(undefined),
  age_min: age(),
  age_max: age(),
  ...patientFilterParams,
});
export type TCervicalListState = z.infer<typeof ZCervicalListParams>;

export const CERVICAL_PANEL_KEYS = [
  'reviewer1',
  'reviewer2',
  'device',
  'technician',
  'survivor',
  'positive',
  'findings',
  'symptoms',
  'history',
  'disagreement',
] as const;

export function countCervicalFilters(s: TCervicalListState): number {
  const set = CERVICAL_PANEL_KEYS.filter((k) => s[k] !== undefined).length;
  return set + (s.age_min !== undefined || s.age_max !== undefined ? 1 : 0);
}

export const CLEARED_CERVICAL_FILTERS: Partial<TCervicalListState> = {
  ...Object.fromEntries(CERVICAL_PANEL_KEYS.map((k) => [k, undefined])),
  technician_label: undefined,
  age_min: undefined,
  age_max: undefined,
};

const bool = (v: 'yes' | 'no' | undefined): boolean | undefined => (v === undefined ? undefined : v === 'yes');

/** URL state → `GET cervaical/` parameters (the CSV takes the same without paging). */
export function toCervicalQuery(s: TCervicalListState, organizationId: number | undefined): TCervicalQuery {
  const q: TCervicalQuery = {
    page: s.page,
    limit: s.limit,
    ordering: s.ordering,
    search: s.search || undefined,
    organization: organizationId,
    reviewer_one_status: s.reviewer1,
    reviewer_two_status: s.reviewer2,
    device: s.device,
    technician: s.technician,
    patient: s.patient,
    survivor: bool(s.survivor),
    is_positive: bool(s.positive),
    left_breast_finding: bool(s.findings),
    symptoms: bool(s.symptoms),
    family_history: bool(s.history),
    disagreement: s.disagreement === undefined ? undefined : true,
    adjudicated: s.disagreement === 'pending' ? false : s.disagreement === 'adjudicated' ? true : undefined,
    age_min: s.age_min !== undefined && s.age_min > SCAN_AGE_FILTER.min ? s.age_min : undefined,
    age_max: s.age_max !== undefined && s.age_max < SCAN_AGE_FILTER.max ? s.age_max : undefined,
    ...periodToQuery(s, 'date_time'),
  };
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as TCervicalQuery;
}
