// Pre-aggregated follow-up figures (issue 26, "Programme figures"): the dashboard's follow-up card and its table per
// organization read these instead of grouping follow_up_cases. Days are UTC calendar days of `opened_at`; a period
// read in the caller's time zone takes the whole UTC days inside it from here and counts its partial edge days from
// follow_up_cases directly (follow_up_cases_opened_idx), so every zone is exact — as the scan statistics do.
// Each case counts once under modality 'ALL' and once under each of its modalities (the modality filter).
// Kept exact by row triggers on follow_up_cases (migration 0024): INSERT, UPDATE OF the columns they read, DELETE,
// whatever code path writes (actions, opening, transfer, demo, backfill). `follow_up_stats_rebuild()` recomputes them.
// organization_id is NULL for cases without an organization (the key treats NULLs as equal).
import { date, index, integer, pgTable, text, unique } from 'drizzle-orm/pg-core';

/** The modality key of the rows that count every case, whatever its modalities. */
export const FOLLOW_UP_STATS_ALL = 'ALL';

export const followUpStatsOrgDaily = pgTable(
  'follow_up_stats_org_daily',
  {
    day: date('day').notNull(),
    organizationId: integer('organization_id'),
    modality: text('modality').notNull(),
    screenPositives: integer('screen_positives').notNull().default(0),
    /** CLOSED with a diagnostic outcome. */
    completed: integer('completed').notNull().default(0),
    lost: integer('lost').notNull().default(0),
    declined: integer('declined').notNull().default(0),
  },
  (t) => [
    unique('follow_up_stats_org_daily_key').on(t.day, t.organizationId, t.modality).nullsNotDistinct(),
    index('follow_up_stats_org_daily_org_idx').on(t.organizationId, t.modality, t.day),
    index('follow_up_stats_org_daily_day_idx').on(t.modality, t.day),
  ],
);

/**
 * Completed cases per day opened and whole days from the positive to the diagnosis (diagnosis date − the opened
 * instant's local date in the organization's zone): the exact median without reading the cases.
 */
export const followUpStatsDiagnosisDaily = pgTable(
  'follow_up_stats_diagnosis_daily',
  {
    day: date('day').notNull(),
    organizationId: integer('organization_id'),
    modality: text('modality').notNull(),
    days: integer('days').notNull(),
    cases: integer('cases').notNull().default(0),
  },
  (t) => [
    unique('follow_up_stats_diagnosis_daily_key').on(t.day, t.organizationId, t.modality, t.days).nullsNotDistinct(),
    index('follow_up_stats_diagnosis_daily_org_idx').on(t.organizationId, t.modality, t.day),
    index('follow_up_stats_diagnosis_daily_day_idx').on(t.modality, t.day),
  ],
);
