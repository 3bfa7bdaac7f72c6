// Licences of the ORCA and Cervaical apps (part 3 §2 Licence list, §3, §4, §5, §7, §9; architecture §7, §7b): the
// contracts of `organization/license/` and `organization/license/log/`, the count arithmetic the form and the API
// share, and the messages. `count` is what is left, `total_license_count` what was ever granted; a renewal adds
// to both, each device exam report takes one from `count`.
import { z } from 'zod';
import { LICENCE_APPLICATIONS, LICENCE_COUNT_STEP, LICENCE_MIN_COUNT } from './constants.ts';
import { ZListQuery, idField, idParam } from './list.ts';
import type { TUserType } from './roles.ts';

export type TLicenceApplication = (typeof LICENCE_APPLICATIONS)[number];

/** The License menu entry's roles (part 1 §6): only they reach the screen, and the API refuses everyone else. */
export const LICENCE_ROLES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN'];
export const canManageLicences = (role: TUserType): boolean => LICENCE_ROLES.includes(role);

export const LICENCE_MESSAGES = {
  organizationRequired: 'Select an organization',
  application: `Select a valid choice: ${LICENCE_APPLICATIONS.join(', ')}.`,
  countMin: `Ensure this value is greater than or equal to ${LICENCE_MIN_COUNT}.`,
  countStep: `The count changes in steps of ${LICENCE_COUNT_STEP}.`,
  countBelowTotal: (total: number) =>
    `A renewal adds licenses: the new total cannot be lower than the current total of ${total}.`,
  organizationFixed: 'The organization of a license cannot be changed.',
  applicationFixed: 'The application of a license cannot be changed.',
  created: 'License created Successfully',
  updated: 'License updated Successfully',
  renewed: 'License renewed Successfully',
  deleted: 'License deleted Successfully',
  deleteConfirm: 'Are you sure you want to delete this license?',
  noLogs: 'No license logs found!',
  emptyNone: 'No licenses yet!',
  emptyFiltered: 'No licenses found!',
  searchPlaceholder: 'Search by license no',
  /** A device exam upload when the organization has no licence of the application left. */
  noneLeft: (application: TLicenceApplication) =>
    `Your organization has no ${application} license left: ask an administrator to renew it, then upload again.`,
  unknownCode: (application: TLicenceApplication) =>
    `No active ${application} license of your organization has this license key.`,
} as const;

// ---- Count arithmetic (the form's plus and minus buttons and the API share it) ---------------------------------

/** Minus is disabled at the minimum: 100 on create, 0 for the added count of a renewal. */
export const canDecreaseCount = (value: number, min: number): boolean => value - LICENCE_COUNT_STEP >= min;
export const increaseCount = (value: number): number => value + LICENCE_COUNT_STEP;
export const decreaseCount = (value: number, min: number): number =>
  canDecreaseCount(value, min) ? value - LICENCE_COUNT_STEP : value;

/** What the Renew dialog and the PATCH answer show: the current total, the amount added, the total after. */
export const ZLicenceRenewal = z.object({ current: z.number(), added: z.number(), total: z.number() });
export type TLicenceRenewal = z.infer<typeof ZLicenceRenewal>;
export const renewalOf = (current: number, added: number): TLicenceRenewal => ({
  current,
  added,
  total: current + added,
});

// ---- Requests ----------------------------------------------------------------------------------------------------

const intError = (required: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? required : 'A valid integer is required.';

const ZOrganization = idField(undefined, LICENCE_MESSAGES.organizationRequired);

const ZApplication = z.enum(LICENCE_APPLICATIONS, { error: LICENCE_MESSAGES.application });

/** A count of licences: whole hundreds (the form has only plus and minus). */
const ZCount = (min: number) =>
  z
    .number({ error: intError('This field is required.') })
    .int('A valid integer is required.')
    .min(min, `Ensure this value is greater than or equal to ${min}.`)
    .max(1_000_000_000, 'Ensure this value is less than or equal to 1000000000.')
    .refine((n) => n % LICENCE_COUNT_STEP === 0, LICENCE_MESSAGES.countStep);

/** POST organization/license/ */
export const ZLicenceInput = z.object({
  organization: ZOrganization,
  application: ZApplication,
  count: ZCount(LICENCE_MIN_COUNT),
  is_active: z.boolean({ error: 'Must be a valid boolean.' }).default(true),
});
export type TLicenceInput = z.infer<typeof ZLicenceInput>;
export type TLicenceInputRaw = z.input<typeof ZLicenceInput>;

/**
 * PATCH organization/license/{id}/: the same fields, `count` being the new total (part 3 §7). The server turns it
 * into an addition (architecture §7b); organization and application are read-only once created.
 */
export const ZLicencePatch = z.object({
  organization: ZOrganization.optional(),
  application: ZApplication.optional(),
  count: ZCount(0).optional(),
  is_active: z.boolean({ error: 'Must be a valid boolean.' }).optional(),
});
export type TLicencePatch = z.infer<typeof ZLicencePatch>;

export const LICENCE_ORDERING_FIELDS = [
  'id',
  'created',
  'license_code',
  'application',
  'count',
  'total_license_count',
] as const;
export const LICENCE_DEFAULT_ORDERING = '-created';

/** GET organization/license/ */
export const ZLicenceListQuery = ZListQuery.extend({
  organization: idParam('organization').optional(),
  application: ZApplication.optional(),
});
export type TLicenceListQuery = z.infer<typeof ZLicenceListQuery>;

/** GET organization/license/log/ */
export const ZLicenceLogQuery = ZListQuery.extend({ license_id: idParam('license_id') });
export type TLicenceLogQuery = z.infer<typeof ZLicenceLogQuery>;

// ---- Responses ---------------------------------------------------------------------------------------------------

/** Part 3 §3 Licence. */
export const ZLicence = z.object({
  id: z.number(),
  organization: z.object({ id: z.number(), name: z.string() }),
  license_code: z.string(),
  pin: z.string(),
  application: ZApplication,
  count: z.number().describe('Licenses left'),
  total_license_count: z.number().describe('Licenses ever granted'),
  is_active: z.boolean(),
  created: z.string(),
  modified: z.string(),
});
export type TLicence = z.infer<typeof ZLicence>;

export const ZLicenceSaved = ZLicence.extend({
  detail: z.string(),
  /** Set when the save added licenses. */
  renewal: ZLicenceRenewal.nullable(),
});
export type TLicenceSaved = z.infer<typeof ZLicenceSaved>;

/** Part 3 §3 Licence log, with the name of who made the change. */
export const ZLicenceLog = z.object({
  id: z.number(),
  license_id: z.number(),
  before_count: z.number(),
  after_count: z.number(),
  renewal_datetime: z.string(),
  renewed_by: z.number().nullable(),
  renewed_by_name: z.string().nullable(),
  created: z.string(),
});
export type TLicenceLog = z.infer<typeof ZLicenceLog>;

export const ZLicenceDeleted = z.object({ detail: z.string() });
