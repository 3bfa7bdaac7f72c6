// The list envelope and query parameters every list shares (architecture §4).
import { z } from 'zod';
import { DAY_FILTERS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MONTH_FILTERS } from './constants.ts';
import { textField } from './validation.ts';

export const INTEGER_MESSAGE = 'A valid integer is required.';
/** A query parameter that takes one value, sent more than once (`?limit=1&limit=2`). */
export const REPEATED_PARAMETER_MESSAGE = 'Only one value is allowed.';

/**
 * A whole number in a query parameter: plain decimal digits (after an optional minus) only. `Number()` would also read
 * '0x10' as 16, '1e3' as 1000, ' 7 ' as 7 and '' as 0; none of those is what a person or a client meant, so each is
 * refused. A number (a caller building the query in code) is accepted when it is a safe integer.
 */
export const decimalIntParam = (name: string, min: number, max: number) =>
  z
    .union([z.string(), z.number()], { error: INTEGER_MESSAGE })
    .transform((v, ctx) => {
      // A minus sign is read, so '-1' gets the range message rather than a type error.
      const isDecimal = typeof v === 'number' ? Number.isSafeInteger(v) : /^-?\d{1,16}$/.test(v);
      if (!isDecimal) {
        ctx.addIssue({ code: 'custom', message: INTEGER_MESSAGE });
        return z.NEVER;
      }
      return Number(v);
    })
    .pipe(
      z
        .number()
        .min(min, `Ensure ${name} is greater than or equal to ${min}.`)
        .max(max, `Ensure ${name} is less than or equal to ${max}.`),
    );

const intParam = decimalIntParam;

/** A real calendar date written YYYY-MM-DD (2024-02-29 yes, 2023-02-29 and 2024-02-30 no). */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const t = Date.parse(`${s}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
}

// One check, so a malformed value gets the message once.
const isoDate = z.string().refine(isIsoDate, { message: 'Enter a valid date in YYYY-MM-DD format.' });

const boolParam = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'True', 'False'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'True');

export const ZBoolParam = boolParam;

/** Largest id of a PostgreSQL `serial`. */
export const MAX_ID = 2_147_483_647;

/**
 * Whether a number can name a row: an integer from 1 to MAX_ID. The one rule for every id the API reads (path,
 * query, body): a larger number overflows PostgreSQL's `integer` inside the query, which fails as a 500.
 */
export const isId = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= MAX_ID;

/** A query parameter naming one row by id (`?parent=12`, `?organization_id=3`): decimal digits, 1 to MAX_ID. */
export const idParam = (name: string) => decimalIntParam(name, 1, MAX_ID);

/**
 * A body field naming one row by id: a JSON integer from 1 to MAX_ID (`isId`); anything else answers `invalid` on
 * the field, a missing or null value `required` (a nullable or optional field never asks) and a value that is not
 * a number `notANumber`.
 */
export const idField = (invalid: string = INTEGER_MESSAGE, required: string = invalid, notANumber: string = invalid) =>
  z
    .number({ error: (issue) => (issue.input === undefined || issue.input === null ? required : notANumber) })
    .int(invalid)
    .min(1, invalid)
    .max(MAX_ID, invalid);
export const ZIsoDate = isoDate;

/**
 * The longest search a list takes, counted as zod counts a string's length: Unicode code points after trimming and
 * NFC normalisation (an emoji such as 🙂 counts 1). The console checks the same schema before it sends a search.
 */
export const SEARCH_MAX_LENGTH = 200;
export const SEARCH_TOO_LONG_MESSAGE = `Search can be at most ${SEARCH_MAX_LENGTH} characters.`;

/** The `search` parameter of every list: an over-long search answers 400 on `search`, never a silent no-search. */
export const ZSearchParam = textField().trim().max(SEARCH_MAX_LENGTH, SEARCH_TOO_LONG_MESSAGE);

/** What is wrong with a search the console is about to send (the API's own check), or undefined when it may go. */
export function searchProblem(text: string): string | undefined {
  const result = ZSearchParam.safeParse(text);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** The OpenAPI description of `ordering` (issue 23.22: the tie-break is part of the contract). */
export const ORDERING_DESCRIPTION =
  'Comma-separated fields to sort by, "-" for descending (each list names its fields). The row id is always ' +
  'appended as the last key, in the direction of the last field, so rows that tie on the chosen fields (e.g. ' +
  '-date_time) keep one order and paging neither repeats nor skips a row.';

/** The OpenAPI description of `search`. */
export const SEARCH_DESCRIPTION = `Text to look for (each list names its columns), at most ${SEARCH_MAX_LENGTH} characters; a longer one answers 400 on search.`;

export const ZListQuery = z.object({
  page: intParam('page', 1, 1_000_000).default(1),
  limit: intParam('limit', 1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  ordering: textField().trim().max(200).describe(ORDERING_DESCRIPTION).optional(),
  search: ZSearchParam.describe(SEARCH_DESCRIPTION).optional(),
  using_read_db: boolParam.optional(),
});
export type TListQuery = z.infer<typeof ZListQuery>;

/** Period filters read in the caller's Timezone header; a start without an end means that one day. */
export const ZPeriodQuery = z.object({
  date_time_after: isoDate.optional(),
  date_time_before: isoDate.optional(),
  created_after: isoDate.optional(),
  created_before: isoDate.optional(),
  day: z.enum(DAY_FILTERS, { error: `Select a valid choice: ${DAY_FILTERS.join(', ')}.` }).optional(),
  month: z.enum(MONTH_FILTERS, { error: `Select a valid choice: ${MONTH_FILTERS.join(', ')}.` }).optional(),
});
export type TPeriodQuery = z.infer<typeof ZPeriodQuery>;

export const paginated = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    count: z.number(),
    /** True when `count` is a lower bound: a text search counted its rows up to SEARCH_COUNT_AHEAD past the page. */
    count_capped: z
      .boolean()
      .optional()
      .describe('Present (true) when count is a lower bound: a text search counted up to 200 rows past the page'),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
export type TPaginated<T> = {
  count: number;
  count_capped?: boolean;
  next: string | null;
  previous: string | null;
  results: T[];
};

/**
 * A text search of the scan and patient lists counts its rows exactly up to this many past the requested page's
 * first row; when more match, the answer says `count: offset + SEARCH_COUNT_AHEAD` with `count_capped: true` and the
 * console reads 'More than {n} items' (a 3-letter search matches ~86,000 of a million scans: counting them all costs
 * ~100 ms of database time a keystroke).
 */
export const SEARCH_COUNT_AHEAD = 200;

export const ZCountry = z.object({
  name: z.string(),
  dial_code: z.string(),
  code: z.string(),
  currency_code: z.string().nullable(),
});
export type TCountry = z.infer<typeof ZCountry>;

/** `GET country/?search=`: matches name, ISO code or dial code. */
export const ZCountryQuery = z.object({ search: ZSearchParam.optional() });
export type TCountryQuery = z.infer<typeof ZCountryQuery>;
