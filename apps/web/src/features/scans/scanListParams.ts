// The scan list's state in the URL (part 2 §2.7) and its translation into `GET scan/` parameters. The filter panel's
// fields are counted for the badge; `device` is also the dashboard's link (`/scan?device=<serial>`).
import { z } from 'zod';
import { SCAN_TYPES } from '@sc/shared/constants';
import {
  SCAN_AGE_FILTER,
  SCAN_ASSIGNED_FILTERS,
  SCAN_TECHNICIAN_TYPES,
  assignedFilterParam,
} from '@sc/shared/scans';
import { patientFilterParams } from '../../components/list/PatientFilter.tsx';
import { periodToQuery } from '../../components/list/periods.ts';
import { listParamsSchema } from '../../components/list/useListParams.ts';
import type { TScanQuery } from './scans.api.ts';

const yesNo = () => z.enum(['yes', 'no']).optional().catch(undefined);
const serial = () => z.string().trim().min(1).max(64).optional().catch(undefined);
const age = () => z.coerce.number().int().min(SCAN_AGE_FILTER.min).max(SCAN_AGE_FILTER.max).optional().catch(undefined);

export const ZScanListParams = listParamsSchema({
  view: z.enum(['list', 'map']).catch('list'),
  device: serial(),
  sensor: serial(),
  technician: z.coerce.number().int().positive().optional().catch(undefined),
  technician_name: z.string().max(200).optional().catch(undefined),
  user_type: z.enum(SCAN_TECHNICIAN_TYPES).optional().catch(undefined),
  scan_type: z.enum(SCAN_TYPES).optional().catch(undefined),
  replay: yesNo(),
  survivor: yesNo(),
  positive: yesNo(),
  history: yesNo(),
  symptoms: yesNo(),
  assigned: z.enum(SCAN_ASSIGNED_FILTERS).catch('all_scan'),
  duplicates: z.enum(['all', 'duplicates']).catch('all'),
  age_min: age(),
  age_max: age(),
  ...patientFilterParams,
});
export type TScanListState = z.infer<typeof ZScanListParams>;

/** The filter panel's fields (the badge counts those set). */
export const PANEL_FILTER_KEYS = [
  'symptoms',
  'survivor',
  'positive',
  'history',
  'user_type',
  'age',
  'device',
  'sensor',
  'technician',
  'scan_type',
  'replay',
  'assigned',
  'duplicates',
] as const;

export function countActiveFilters(s: TScanListState): number {
  let n = 0;
  for (const key of PANEL_FILTER_KEYS) {
    if (key === 'age') n += s.age_min !== undefined || s.age_max !== undefined ? 1 : 0;
    else if (key === 'assigned') n += s.assigned === 'all_scan' ? 0 : 1;
    else if (key === 'duplicates') n += s.duplicates === 'all' ? 0 : 1;
    else n += s[key] === undefined ? 0 : 1;
  }
  return n;
}

/** Clears every panel filter (search and period stay). */
export const CLEARED_FILTERS: Partial<TScanListState> = {
  device: undefined,
  sensor: undefined,
  technician: undefined,
  technician_name: undefined,
  user_type: undefined,
  scan_type: undefined,
  replay: undefined,
  survivor: undefined,
  positive: undefined,
  history: undefined,
  symptoms: undefined,
  assigned: 'all_scan',
  duplicates: 'all',
  age_min: undefined,
  age_max: undefined,
};

const bool = (v: 'yes' | 'no' | undefined): boolean | undefined => (v === undefined ? undefined : v === 'yes');

export type ScanListFixed = {
  organizationId?: number;
  technicianId?: number;
  /** Admin filters are sent only for roles the API allows them (else 403). */
  mayFilterAssigned: boolean;
  mayFilterDuplicates: boolean;
};

/** URL state → `GET scan/` parameters (also the map's and the CSV's filters, without paging). */
export function toScanQuery(s: TScanListState, fixed: ScanListFixed): TScanQuery {
  const q: TScanQuery = {
    page: s.page,
    limit: s.limit,
    ordering: s.ordering,
    search: s.search || undefined,
    organization: fixed.organizationId,
    device: s.device,
    sensor_serial_number: s.sensor,
    technician: fixed.technicianId ?? s.technician,
    patient: s.patient,
    user_type: s.user_type,
    scan_type: s.scan_type,
    is_replay_available: bool(s.replay),
    survivor: bool(s.survivor),
    is_positive: bool(s.positive),
    family_history: bool(s.history),
    symptoms: bool(s.symptoms),
    is_organization_id: fixed.mayFilterAssigned ? assignedFilterParam(s.assigned) : undefined,
    is_parent_scan_id: fixed.mayFilterDuplicates && s.duplicates === 'duplicates' ? true : undefined,
    // The slider's ends mean "no bound".
    age_min: s.age_min !== undefined && s.age_min > SCAN_AGE_FILTER.min ? s.age_min : undefined,
    age_max: s.age_max !== undefined && s.age_max < SCAN_AGE_FILTER.max ? s.age_max : undefined,
    ...periodToQuery(s, 'date_time'),
  };
  // Leave unset keys out, so the query key and the URL stay short.
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as TScanQuery;
}

/** The list's filters without paging and ordering: the map points and the CSV. */
export function toScanFilterQuery(q: TScanQuery): Omit<TScanQuery, 'page' | 'limit' | 'ordering'> {
  const { page: _page, limit: _limit, ordering: _ordering, ...filters } = q;
  return filters;
}
