// Period reports (part 3 "Report page", "Report period modal", §3 Scan report row, §5 Report form, §6, §7, §9):
// `organization/report-generate/` (a row per technician) and `organization/leaderboard/report-generate/` (a row per
// organization) compare two periods. The console picks a completed month, quarter, half or year and the previous
// one of the same kind; the API reads any two date ranges. Everything both sides need is here: who may ask, the
// periods, the query, the rows, the CSV columns and the file names.
import { z } from 'zod';
import { ERROR_BANNER_MS } from './constants.ts';
import { DASHBOARD_MESSAGES, positivityPercent } from './dashboard.ts';
import { ZBoolParam, ZListQuery, decimalIntParam, idParam, isIsoDate } from './list.ts';
import type { TUserType } from './roles.ts';

// ---- Who may do what -------------------------------------------------------------------------------------------
/** The Report menu entry's roles (part 1 §6); each reads its own scope of organizations. */
export const REPORT_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'];
/** Part 3 §6: the report organization filter. */
export const REPORT_ORGANIZATION_FILTER_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER'];

export const REPORT_KINDS = ['technician', 'organization'] as const;
export type TReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_PATHS: Record<TReportKind, string> = {
  technician: 'organization/report-generate/',
  organization: 'organization/leaderboard/report-generate/',
};

export const REPORT_TITLES: Record<TReportKind, string> = {
  technician: 'Technician report',
  organization: 'Organization report',
};

// ---- Texts and limits ------------------------------------------------------------------------------------------
export const REPORT_MESSAGES = {
  selectYear: 'Select Year',
  selectRange: 'Select date range',
  selectMonth: 'Select month',
  selectQuarter: 'Select quarter',
  selectHalf: 'Select half',
  noScans: 'No scans found',
  dateFormat: 'Enter a valid date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS.',
  endBeforeStart: DASHBOARD_MESSAGES.endBeforeStart,
} as const;

/** Part 3 §9: report years run from 2018 to the current year. */
export const REPORT_FIRST_YEAR = 2018;
/** Part 3 §9: report and CSV page size. */
export const REPORT_PAGE_SIZE = 200;
/** 'No scans found' shows this long (part 3 §8). */
export const REPORT_MESSAGE_MS = ERROR_BANNER_MS;

// ---- Periods ---------------------------------------------------------------------------------------------------
export const REPORT_PERIOD_TYPES = ['MONTHLY', 'QUARTERLY', 'HALF_YEARLY', 'ANNUALLY'] as const;
export type TReportPeriodType = (typeof REPORT_PERIOD_TYPES)[number];

export const REPORT_PERIOD_LABELS: Record<TReportPeriodType, string> = {
  MONTHLY: 'Monthly',
  QUARTERLY: 'Quarterly',
  HALF_YEARLY: 'Half yearly',
  ANNUALLY: 'Annually',
};
/** The word that starts a file name (part 3 §9: Monthly_organization_report_(range)). */
const FILE_WORD: Record<TReportPeriodType, string> = {
  MONTHLY: 'Monthly',
  QUARTERLY: 'Quarterly',
  HALF_YEARLY: 'Half_yearly',
  ANNUALLY: 'Annually',
};
/** Months in each period of a type. */
const PERIOD_MONTHS: Record<TReportPeriodType, number> = { MONTHLY: 1, QUARTERLY: 3, HALF_YEARLY: 6, ANNUALLY: 12 };

const MONTH_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const MONTH_LONG = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

/** The sub-choices of a type, index from 0 (part 3 §9: Q1 Jan-Mar … Q4 Oct-Dec, H1 Jan-Jun, H2 Jul-Dec). */
export function periodChoiceLabels(type: TReportPeriodType): string[] {
  switch (type) {
    case 'MONTHLY':
      return [...MONTH_LONG];
    case 'QUARTERLY':
      return ['Q1 (Jan-Mar)', 'Q2 (Apr-Jun)', 'Q3 (Jul-Sep)', 'Q4 (Oct-Dec)'];
    case 'HALF_YEARLY':
      return ['H1 (Jan-Jun)', 'H2 (Jul-Dec)'];
    case 'ANNUALLY':
      return ['Full year'];
  }
}

/** A period as two calendar dates, both included. */
export type TReportRange = { start: string; end: string };
export type TReportPeriod = { year: number; type: TReportPeriodType; index: number };

const pad = (n: number) => String(n).padStart(2, '0');
const daysInMonth = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

export function periodRange({ year, type, index }: TReportPeriod): TReportRange {
  const months = PERIOD_MONTHS[type];
  const first = index * months;
  const last = first + months - 1;
  return {
    start: `${year}-${pad(first + 1)}-01`,
    end: `${year}-${pad(last + 1)}-${pad(daysInMonth(year, last))}`,
  };
}

/** The comparison period: the previous month, quarter, half or year, across the year boundary (part 3 §9). */
export function previousPeriod({ year, type, index }: TReportPeriod): TReportPeriod {
  const count = 12 / PERIOD_MONTHS[type];
  return index > 0 ? { year, type, index: index - 1 } : { year: year - 1, type, index: count - 1 };
}

/** The years offered: the current one down to 2018. */
export function reportYears(today: string): number[] {
  const current = Number(today.slice(0, 4));
  const years: number[] = [];
  for (let y = current; y >= REPORT_FIRST_YEAR; y--) years.push(y);
  return years;
}

/**
 * The sub-choices offered for a year (indexes): every one for an earlier year; for the current year only the
 * periods that have ended before `today` (YYYY-MM-DD, the user's date), part 3 §5.
 */
export function completedChoices(year: number, type: TReportPeriodType, today: string): number[] {
  const count = 12 / PERIOD_MONTHS[type];
  const all = Array.from({ length: count }, (_, i) => i);
  return all.filter((index) => periodRange({ year, type, index }).end < today);
}

/** The period types with at least one choice for the year (none in January of the current year). */
export function periodTypesFor(year: number, today: string): TReportPeriodType[] {
  return REPORT_PERIOD_TYPES.filter((type) => completedChoices(year, type, today).length > 0);
}

/** Which kind of period a range is (a whole month, quarter, half or year), or null for any other range. */
export function periodOfRange(range: TReportRange): TReportPeriod | null {
  const year = Number(range.start.slice(0, 4));
  for (const type of REPORT_PERIOD_TYPES) {
    for (let index = 0; index < 12 / PERIOD_MONTHS[type]; index++) {
      const p = periodRange({ year, type, index });
      if (p.start === range.start && p.end === range.end) return { year, type, index };
    }
  }
  return null;
}

/** Part 3 §9: 'D - D Mon - YYYY' within a month ('1 - 31 Oct - 2026'), else '1 Jul - 30 Sep - 2026'. */
export function reportRangeLabel({ start, end }: TReportRange): string {
  const [sy, sm, sd] = start.split('-').map(Number) as [number, number, number];
  const [ey, em, ed] = end.split('-').map(Number) as [number, number, number];
  const mon = (m: number) => MONTH_SHORT[m - 1];
  if (sy === ey && sm === em) return `${sd} - ${ed} ${mon(em)} - ${ey}`;
  if (sy === ey) return `${sd} ${mon(sm)} - ${ed} ${mon(em)} - ${ey}`;
  return `${sd} ${mon(sm)} ${sy} - ${ed} ${mon(em)} - ${ey}`;
}

// Characters a file name cannot hold on common systems, and control characters.
// eslint-disable-next-line no-control-regex
const FILE_NAME_UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/**
 * Part 3 §9: Monthly_organization_report_(1 - 31 Oct - 2026).csv, with the organization name as a prefix when the
 * report is filtered to one. A range that is not one whole period is 'Custom'.
 */
export function reportFileName(kind: TReportKind, range: TReportRange, organizationName?: string | null): string {
  const period = periodOfRange(range);
  const word = period ? FILE_WORD[period.type] : 'Custom';
  const prefix = organizationName?.replace(FILE_NAME_UNSAFE, ' ').replace(/\s+/g, ' ').trim();
  return `${prefix ? `${prefix}_` : ''}${word}_${kind}_report_(${reportRangeLabel(range)}).csv`;
}

/**
 * The CSV header (part 3 §9): ID, Name, then number of scans, positive scans and positivity rate of the earlier
 * period and of the reported one (each labelled with its range), 'Scan differ count' and 'Positivity differ
 * percentage %'.
 */
export function reportCsvColumns(first: TReportRange, second: TReportRange): string[] {
  const trio = (r: TReportRange) => {
    const label = reportRangeLabel(r);
    return [`Number of scans (${label})`, `Positive scans (${label})`, `Positivity rate (${label})`];
  };
  return ['ID', 'Name', ...trio(first), ...trio(second), 'Scan differ count', 'Positivity differ percentage %'];
}

// ---- Names in the CSV ------------------------------------------------------------------------------------------
/** Part 3 §5: organization names lose line breaks, and commas become spaces. */
export const reportOrganizationName = (name: string): string => name.replace(/[\r\n]+/g, ' ').replace(/,/g, ' ');

/** Part 3 §5: a user_type other than TECHNICIAN is appended in brackets after the name. */
export function reportTechnicianName(row: { first_name: string | null; last_name: string | null; user_type: string }): string {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ').replace(/[\r\n]+/g, ' ');
  return row.user_type === 'TECHNICIAN' ? name : `${name} (${row.user_type})`;
}

// ---- The comparison --------------------------------------------------------------------------------------------
export type TReportFigures = {
  scans_count_1: number;
  scans_count_2: number;
  positivity_1: number;
  positivity_2: number;
  dynamic_positivity_percentage_1: number;
  dynamic_positivity_percentage_2: number;
  no_of_scan_diff: number;
  positivity_percentage_diff: number;
};

/**
 * Period 1 is the earlier (comparison) period, period 2 the reported one: the differences are 2 minus 1, and the
 * positivity difference is in percentage points between the two one-decimal rates.
 */
export function reportFigures(s1: number, p1: number, s2: number, p2: number): TReportFigures {
  const r1 = positivityPercent(p1, s1);
  const r2 = positivityPercent(p2, s2);
  return {
    scans_count_1: s1,
    scans_count_2: s2,
    positivity_1: p1,
    positivity_2: p2,
    dynamic_positivity_percentage_1: r1,
    dynamic_positivity_percentage_2: r2,
    no_of_scan_diff: s2 - s1,
    positivity_percentage_diff: Math.round((r2 - r1) * 10) / 10,
  };
}

// ---- The query -------------------------------------------------------------------------------------------------
/** 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (part 3 §7 sends '… 00:00:00' for starts and '… 23:59:59' for ends). */
export type TReportInstant = { date: string; time: string | null };

const ZReportInstant = z.string({ error: REPORT_MESSAGES.dateFormat }).transform((raw, ctx): TReportInstant => {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/.exec(raw.trim());
  const [, date, hh, mm, ss] = m ?? [];
  const timeOk = hh === undefined || (Number(hh) < 24 && Number(mm) < 60 && Number(ss) < 60);
  if (!date || !isIsoDate(date) || !timeOk || Number(date.slice(0, 4)) < 1900) {
    ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.dateFormat });
    return z.NEVER;
  }
  return { date, time: hh === undefined ? null : `${hh}:${mm}:${ss}` };
});

const instantKey = (i: TReportInstant, isEnd: boolean) => `${i.date} ${i.time ?? (isEnd ? '23:59:59' : '00:00:00')}`;

export const ZReportQuery = z
  .object({
    report_start_date_1: ZReportInstant,
    report_end_date_1: ZReportInstant,
    report_start_date_2: ZReportInstant,
    report_end_date_2: ZReportInstant,
    organization_id: idParam('organization_id').optional(),
    page: ZListQuery.shape.page,
    limit: decimalIntParam('limit', 1, 1000).default(REPORT_PAGE_SIZE),
    using_read_db: ZBoolParam.optional(),
    report_log: ZBoolParam.optional(),
    /** `csv` streams the whole report as the file of part 3 §9 (recorded in the report log). */
    format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
  })
  .superRefine((q, ctx) => {
    for (const n of [1, 2] as const) {
      const start = q[`report_start_date_${n}`];
      const end = q[`report_end_date_${n}`];
      if (instantKey(end, true) < instantKey(start, false))
        ctx.addIssue({ code: 'custom', path: [`report_end_date_${n}`], message: REPORT_MESSAGES.endBeforeStart });
    }
  });
export type TReportQuery = z.infer<typeof ZReportQuery>;

/** The query the console sends for a chosen period and the one before it. */
export function reportQueryFor(period: TReportPeriod, organizationId?: number | null): Record<string, string | number> {
  const chosen = periodRange(period);
  const previous = periodRange(previousPeriod(period));
  return {
    report_start_date_1: `${previous.start} 00:00:00`,
    report_end_date_1: `${previous.end} 23:59:59`,
    report_start_date_2: `${chosen.start} 00:00:00`,
    report_end_date_2: `${chosen.end} 23:59:59`,
    report_log: 'true',
    ...(organizationId ? { organization_id: organizationId } : {}),
  };
}

// ---- Rows (part 3 §3 Scan report row) ---------------------------------------------------------------------------
const figures = {
  scans_count_1: z.number(),
  scans_count_2: z.number(),
  positivity_1: z.number(),
  positivity_2: z.number(),
  dynamic_positivity_percentage_1: z.number(),
  dynamic_positivity_percentage_2: z.number(),
  no_of_scan_diff: z.number(),
  positivity_percentage_diff: z.number(),
};

export const ZTechnicianReportRow = z.object({
  id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  user_type: z.string(),
  ...figures,
});
export type TTechnicianReportRow = z.infer<typeof ZTechnicianReportRow>;

export const ZOrganizationReportRow = z.object({ id: z.number(), name: z.string(), ...figures });
export type TOrganizationReportRow = z.infer<typeof ZOrganizationReportRow>;

/** One CSV record in reportCsvColumns order: rates with a percent sign, the rate difference as a plain number. */
export function reportCsvRecord(id: number, name: string, f: TReportFigures): (string | number)[] {
  return [
    id,
    name,
    f.scans_count_1,
    f.positivity_1,
    `${f.dynamic_positivity_percentage_1.toFixed(1)}%`,
    f.scans_count_2,
    f.positivity_2,
    `${f.dynamic_positivity_percentage_2.toFixed(1)}%`,
    f.no_of_scan_diff,
    f.positivity_percentage_diff.toFixed(1),
  ];
}

// ---- The period form (part 3 §5 Report form) -------------------------------------------------------------------
export type TReportForm = { year: number | null; type: TReportPeriodType | null; index: number | null };

const CHOICE_MESSAGE: Record<Exclude<TReportPeriodType, 'ANNUALLY'>, string> = {
  MONTHLY: REPORT_MESSAGES.selectMonth,
  QUARTERLY: REPORT_MESSAGES.selectQuarter,
  HALF_YEARLY: REPORT_MESSAGES.selectHalf,
};

/** The form's errors by field; a complete form gives its period. Annually has no sub-choice. */
export function checkReportForm(form: TReportForm):
  | { ok: true; period: TReportPeriod }
  | { ok: false; errors: Partial<Record<'year' | 'type' | 'index', string>> } {
  const errors: Partial<Record<'year' | 'type' | 'index', string>> = {};
  if (form.year === null) errors.year = REPORT_MESSAGES.selectYear;
  if (form.type === null) errors.type = REPORT_MESSAGES.selectRange;
  else if (form.type !== 'ANNUALLY' && form.index === null) errors.index = CHOICE_MESSAGE[form.type];
  if (form.year === null || form.type === null || Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, period: { year: form.year, type: form.type, index: form.type === 'ANNUALLY' ? 0 : form.index! } };
}
