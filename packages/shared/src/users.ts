// User list, user responses and impersonation contracts (part 1 §2.7, §7; part 2 §2.2, §2.3, §3, §7 "Users").
// `GET organization/user/` is the one user list (Users, All Users, Unassigned Users, pickers, impersonation modal,
// re-certification). Request bodies and messages are in user-input.ts, the role rules in user-permissions.ts.
import { z } from 'zod';
import {
  ZBoolParam,
  ZIsoDate,
  ZListQuery,
  ZPeriodQuery,
  idParam,
  paginated,
  type TPeriodQuery,
} from './list.ts';
import { IMPERSONATION_LIST_TYPES, USER_TYPES, ZUserType, type TUserType } from './roles.ts';
import { TRAINING_STATUSES } from './constants.ts';

/** Every message of the users area (part 2 §5, §8), defined beside the request schemas. */
export { USER_MESSAGES } from './user-input.ts';

/** Types the impersonation modal lists and the API lets an ADMIN impersonate: never another ADMIN (architecture §5). */
export const IMPERSONATABLE_TYPES: readonly TUserType[] = IMPERSONATION_LIST_TYPES.filter(
  (t) => t !== 'ADMIN',
);

/** Whether a user of type `actor` may impersonate a user of type `target` (ADMIN only, never an ADMIN). */
export const canImpersonate = (actor: TUserType, target: TUserType): boolean =>
  actor === 'ADMIN' && IMPERSONATABLE_TYPES.includes(target);

/**
 * `user_type`: one value, a comma list (`ORG_ADMIN,MANAGER`) or the parameter repeated
 * (`user_type=ORG_ADMIN&user_type=MANAGER`, which the query parser hands over as an array).
 */
export const ZUserTypeList = z.union([z.string(), z.array(z.string())]).transform((value, ctx) => {
  const parts = (Array.isArray(value) ? value : [value])
    .flatMap((v) => v.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
  const types: TUserType[] = [];
  for (const p of parts) {
    const parsed = ZUserType.safeParse(p);
    if (!parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: `Select a valid choice. ${p} is not one of the available choices.`,
      });
      return z.NEVER;
    }
    if (!types.includes(parsed.data)) types.push(parsed.data);
  }
  return types;
});

/**
 * Roles that may read the user list. TECHNICIAN has no console scope; CERVAICAL_REVIEWER reads cervical exams
 * and organization lists only (architecture §6).
 */
export const USER_LIST_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
];

/** The role may read `GET organization/user/` (the user list and the technician pickers built on it). */
export const canListUsers = (role: TUserType): boolean => USER_LIST_ROLES.includes(role);

export const USER_ORDERING_FIELDS = [
  'first_name',
  'last_name',
  'created',
  'id',
  'email',
  'mobile',
  'user_type',
  'ibe_training_status',
  'certificate_issue_date',
  'certificate_expiry_date',
  'organization_name',
] as const;
export const USER_DEFAULT_ORDERING = '-created';

export const ZTrainingStatus = z.enum(TRAINING_STATUSES, {
  error: `Select a valid choice: ${TRAINING_STATUSES.join(', ')}.`,
});
export type TTrainingStatus = z.infer<typeof ZTrainingStatus>;

/**
 * `GET organization/user/`: page, limit, search (first/last name, mobile, email), ordering, period filters on
 * `created` (`date_time_*`, `created_*`, `day`, `month`), `user_type` (list), `is_valid`, `organization_id`,
 * `is_unassigned` (true: users without an organization, which only ADMIN and SUB_ADMIN can see),
 * `ibe_training_status`, `certificate_expiry_date_after`/`_before` (YYYY-MM-DD, inclusive: the re-certification
 * list), using_read_db. The All Users view sends no organization filter; Unassigned Users sends is_unassigned=true.
 */
export const ZOrganizationUserListQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  user_type: ZUserTypeList.optional(),
  is_valid: ZBoolParam.optional(),
  organization_id: idParam('organization_id').optional(),
  is_unassigned: ZBoolParam.optional(),
  ibe_training_status: ZTrainingStatus.optional(),
  certificate_expiry_date_after: ZIsoDate.optional(),
  certificate_expiry_date_before: ZIsoDate.optional(),
});
export type TOrganizationUserListQuery = z.infer<typeof ZOrganizationUserListQuery>;
/** The query as the web builds it (plain values; lists of types travel as one comma-separated value). */
export type TOrganizationUserListParams = Partial<TPeriodQuery> & {
  page?: number;
  limit?: number;
  ordering?: string;
  search?: string;
  using_read_db?: boolean;
  user_type?: readonly TUserType[];
  is_valid?: boolean;
  organization_id?: number;
  is_unassigned?: boolean;
  ibe_training_status?: TTrainingStatus;
  certificate_expiry_date_after?: string;
  certificate_expiry_date_before?: string;
};

export const ZUserOrganizationData = z.object({
  id: z.number().int(),
  name: z.string(),
  can_create_organization: z.boolean(),
});

export const ZOrganizationUser = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  /** Dial code, a hyphen, then the number: '+91-9876543210'. */
  mobile: z.string().nullable(),
  mobile_country_code: z.string().nullable(),
  user_type: z.enum(USER_TYPES),
  is_trainer: z.boolean(),
  is_available_demo: z.boolean(),
  is_valid: z.boolean(),
  organization: z.number().int().nullable(),
  organization_data: ZUserOrganizationData.nullable(),
  ibe_training_status: z.enum(TRAINING_STATUSES),
  certificate_issue_date: z.string().nullable().describe('YYYY-MM-DD'),
  certificate_expiry_date: z.string().nullable().describe('YYYY-MM-DD'),
  created: z.string().describe('ISO 8601 date-time'),
});
export type TOrganizationUser = z.infer<typeof ZOrganizationUser>;

export const ZOrganizationUserList = paginated(ZOrganizationUser);
export type TOrganizationUserList = z.infer<typeof ZOrganizationUserList>;

/** `GET organization/user/{id}/`: the row plus the PIN-reset flag the device app reads. */
export const ZUserDetail = ZOrganizationUser.extend({
  /** True after Reset Pin until the device app sets a new PIN. */
  pin_reset_request: z.boolean(),
});
export type TUserDetail = z.infer<typeof ZUserDetail>;

/**
 * Answer of POST, PUT and PATCH `organization/user/{id}/`, certify and re-certify: the user as saved, the success
 * text to show (USER_MESSAGES), and, when a set-password link was e-mailed (a new user with an e-mail),
 * "Password link sent to email {email}. Tip: …" to show as well (null otherwise).
 */
export const ZUserSaved = ZUserDetail.extend({
  detail: z.string(),
  password_link_message: z.string().nullable(),
});
export type TUserSaved = z.infer<typeof ZUserSaved>;

/** `PUT organization/user/{id}/reset/pin/` answer. */
export const ZPinResetResponse = z.object({ detail: z.string(), pin_reset_request: z.boolean() });
export type TPinResetResponse = z.infer<typeof ZPinResetResponse>;

/** `POST organization/user/{id}/reset/password/` answer: the detail is "Password link sent to email …". */
export const ZPasswordLinkResponse = z.object({ detail: z.string(), email: z.string() });
export type TPasswordLinkResponse = z.infer<typeof ZPasswordLinkResponse>;

/** `GET organization/user/{id}/scan/count/`: the user's scans (as technician) by training type (part 2 §3). */
export const ZUserScanCount = z.object({
  pre_training: z.number().int(),
  training: z.number().int(),
  practice: z.number().int(),
});
export type TUserScanCount = z.infer<typeof ZUserScanCount>;

/** `GET tutorial/module/status/?user_id=&using_read_db=`: the published modules and the user's progress in each. */
export const ZTutorialStatusQuery = z.object({
  user_id: idParam('user_id'),
  using_read_db: ZBoolParam.optional(),
});
export type TTutorialStatusQuery = z.infer<typeof ZTutorialStatusQuery>;

export const ZTutorialStatusItem = z.object({
  id: z.number().int(),
  name: z.string(),
  completed: z.boolean(),
  /** Percent of the module done, 0..100. */
  progress: z.number().int(),
});
export const ZTutorialStatus = z.object({
  /** Published modules in their order (z_order). */
  results: z.array(ZTutorialStatusItem),
  completed: z.number().int(),
  total: z.number().int(),
  /** Completed modules as a whole percent of all (0 when there are none). */
  progress_completed: z.number().int(),
});
export type TTutorialStatus = z.infer<typeof ZTutorialStatus>;

// ---- Manager organization links (part 2 §3 "User organization link", §7) ----------------------------------------

/** `GET user/organizations/?user=&limit=1000` */
export const ZUserOrganizationLinkQuery = ZListQuery.extend({ user: idParam('user') });
export type TUserOrganizationLinkQuery = z.infer<typeof ZUserOrganizationLinkQuery>;

export const ZUserOrganizationLink = z.object({
  id: z.number().int(),
  user: z.number().int(),
  organization: z.number().int(),
  organization_data: z.object({
    id: z.number().int(),
    name: z.string(),
    can_create_organization: z.boolean(),
    country: z.string().nullable(),
  }),
  created: z.string(),
});
export type TUserOrganizationLink = z.infer<typeof ZUserOrganizationLink>;
export const ZUserOrganizationLinkList = paginated(ZUserOrganizationLink);
export type TUserOrganizationLinkList = z.infer<typeof ZUserOrganizationLinkList>;
export const ZUserOrganizationLinkSaved = ZUserOrganizationLink.extend({ detail: z.string() });
export type TUserOrganizationLinkSaved = z.infer<typeof ZUserOrganizationLinkSaved>;

/** `GET user/impersonation/{id}/`: the impersonation token (GET/HEAD only, one hour) and the target's id. */
export const ZImpersonationResponse = z.object({ token: z.string(), id: z.number().int() });
export type TImpersonationResponse = z.infer<typeof ZImpersonationResponse>;
