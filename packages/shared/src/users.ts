// User list and impersonation contracts (part 1 §2.7, §7; part 2 §2.2, §3, §7 "Users").
// `GET organization/user/` is the one user list: the impersonation modal uses it now, the Users screens extend it.
import { z } from 'zod';
import { ZBoolParam, ZListQuery, ZPeriodQuery, idParam, paginated, type TPeriodQuery } from './list.ts';
import { IMPERSONATION_LIST_TYPES, USER_TYPES, ZUserType, type TUserType } from './roles.ts';
import { TRAINING_STATUSES } from './constants.ts';

export const USER_MESSAGES = {
  cannotImpersonate: 'You cannot impersonate this user.',
  notImpersonating: 'This token is not an impersonation token: there is no impersonation to end.',
} as const;

/** Types the impersonation modal lists and the API lets an ADMIN impersonate: never another ADMIN (DESIGN §5). */
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
 * and organization lists only (DESIGN §6).
 */
export const USER_LIST_ROLES: readonly TUserType[] = [
  'ADMIN',
  'SUB_ADMIN',
  'DISTRIBUTOR_ADMIN',
  'MANAGER',
  'ORG_ADMIN',
];

export const USER_ORDERING_FIELDS = ['first_name', 'created', 'id', 'email', 'user_type'] as const;
export const USER_DEFAULT_ORDERING = '-created';

/**
 * `GET organization/user/`: page, limit, search (first/last name, mobile, email), ordering, period filters on
 * `created`, `user_type`, `is_valid`, `organization_id`, `is_unassigned` (true: users without an organization,
 * which only ADMIN and SUB_ADMIN can see), using_read_db.
 */
export const ZOrganizationUserListQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  user_type: ZUserTypeList.optional(),
  is_valid: ZBoolParam.optional(),
  organization_id: idParam('organization_id').optional(),
  is_unassigned: ZBoolParam.optional(),
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

/** `GET user/impersonation/{id}/`: the impersonation token (GET/HEAD only, one hour) and the target's id. */
export const ZImpersonationResponse = z.object({ token: z.string(), id: z.number().int() });
export type TImpersonationResponse = z.infer<typeof ZImpersonationResponse>;
