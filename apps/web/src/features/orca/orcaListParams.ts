// The ORCA list's state in the URL (part 3 §2) and its translation into `GET orca/` parameters. The filter panel's
// fields are counted for the badge; `device` is also the `?device=` link parameter.
import { z } from 'zod';
import { SCAN_AGE_FILTER } from '@sc/shared/scans';
import { patientFilterParams } from '../../components/list/PatientFilter.tsx';
import { periodToQuery } from '../../components/list/periods.ts';
import { listParamsSchema } from '../../components/list/useListParams.ts';
import type { TOrcaQuery } from './orca.api.ts';

const yesNo = () => z.enum(['yes', 'no']).optional().catch(undefined);
const age = () =>
  z.coerce.number().int().min(SCAN_AGE_FILTER.min).max(SCAN_AGE_FILTER.max).optional().catch(undefined);

export const ZOrcaListParams = listParamsSchema({
  device: z.string().trim().min(1).max(64).optional().catch(undefined),
  survivor: yesNo(),
  symptoms: yesNo(),
  history: yesNo(),
  positive: yesNo(),
  report: yesNo(),
  age_min: age(),
  age_max: age(),
  ...patientFilterParams,
});
export type TOrcaListState = z.infer<typeof ZOrcaListParams>;

export const ORCA_PANEL_KEYS = ['survivor', 'symptoms', 'history', 'positive', 'report', 'device'] as const;

export function countOrcaFilters(s: TOrcaListState): number {
  const set = ORCA_PANEL_KEYS.filter((k) => s[k] !== undefined).length;
  return set + (s.age_min !== undefined || s.age_max !== undefined ? 1 : 0);
}

export const CLEARED_ORCA_FILTERS: Partial<TOrcaListState> = {
  device: undefined,
  survivor: undefined,
  symptoms: undefined,
  history: undefined,
  positive: undefined,
  report: undefined,
  age_min: undefined,
  age_max: undefined,
};

const bool = (v: 'yes' | 'no' | undefined): boolean | undefined =>
  v === undefined ? undefined : v === 'yes';

/** URL state → `GET orca/` parameters (the CSV takes the same without paging). */
export function toOrcaQuery(s: TOrcaListState, organizationId: number | undefined): TOrcaQuery {
  const q: TOrcaQuery = {
    page: s.page,
    limit: s.limit,
    ordering: s.ordering,
    search: s.search || undefined,
    organization: organizationId,
    device: s.device,
    patient: s.patient,
    survivor: bool(s.survivor),
    symptoms: bool(s.symptoms),
    family_history: bool(s.history),
    is_positive: bool(s.positive),
    has_report: bool(s.report),
    // The slider's ends mean "no bound".
    age_min: s.age_min !== undefined && s.age_min > SCAN_AGE_FILTER.min ? s.age_min : undefined,
    age_max: s.age_max !== undefined && s.age_max < SCAN_AGE_FILTER.max ? s.age_max : undefined,
    ...periodToQuery(s, 'date_time'),
  };
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as TOrcaQuery;
}
