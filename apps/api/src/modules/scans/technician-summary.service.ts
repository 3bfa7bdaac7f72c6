// GET scan/technician-summary/ (part 2 §2.11, §3, §7): the counts table of the re-certification modal. The
// technician must be a user of SCAN_TECHNICIAN_TYPES in the caller's scope (404 otherwise, as for a missing id);
// only scans of organizations in the caller's scope count, so a technician who moved keeps their other
// organizations' work private.
import { positivityPercent } from '@sc/shared/dashboard';
import {
  SCAN_TECHNICIAN_TYPES,
  type TTechnicianSummary,
  type TTechnicianSummaryQuery,
} from '@sc/shared/scans';
import type { AppContext } from '../../app.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { requestPeriod } from '../../http/period.ts';
import { resolveScope } from '../../http/scope.ts';
import { splitPeriod } from '../dashboard/scan-stats.queries.ts';
import { findUserInScope } from '../users/organization-users.queries.ts';
import { technicianFigures } from './technician-summary.queries.ts';
import { readerFor } from '../../db/replica.ts';

const TECHNICIAN_TYPES: readonly string[] = SCAN_TECHNICIAN_TYPES;

export async function getTechnicianSummary(
  ctx: Pick<AppContext, 'database' | 'now'>,
  actor: Actor,
  query: TTechnicianSummaryQuery,
  timezoneHeader: string | string[] | undefined,
): Promise<TTechnicianSummary> {
  // The period is checked (400) before anything is read.
  const range = requestPeriod(query, timezoneHeader, ctx.now());
  // The scope and the technician come from the primary: a user moved a moment ago is already where they are.
  const scope = await resolveScope(ctx.database.db, actor);
  const technician = await findUserInScope(ctx.database.db, scope, query.technician);
  if (!technician || !TECHNICIAN_TYPES.includes(technician.userType)) throw notFound();
  const db = readerFor(ctx.database, query.using_read_db);
  const figures = await technicianFigures(db, scope, technician.id, splitPeriod(range), range);
  return {
    scans_in_data_range_count: figures.scans,
    positive_scans_in_data_range_count: figures.positives,
    positivity_rate_in_data_range_count: positivityPercent(figures.positives, figures.scans),
    most_recent_scan_date: figures.mostRecent ? new Date(figures.mostRecent).toISOString() : null,
  };
}
