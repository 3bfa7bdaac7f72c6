// Who may do what to which user (part 2 §6; architecture §6, §7b "Levels"). The API's guards and the console's buttons
// call these same functions. Scope (which users an actor sees at all) is the API's: a user outside it answers 404
// before any rule here is asked; these rules then decide between allowed and 403 'Access denied for your permission
// level.' (or a 400 on the field for a type or flag the actor may not give).
import { ROLE_LEVEL, type TUserType } from './roles.ts';
import { TRAINING_REPORT_TARGET_TYPES } from './training-reports.ts';

/** Role → action table of the users area. */
export const USER_ACTIONS = {
  /** The user list, a user's details, scan counts and tutorial status (TECHNICIAN and CERVAICAL_REVIEWER: 403). */
  'user.read': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  /** The list's Create button (part 2 §2.2); ORG_ADMIN in its own organization (architecture §7b). */
  'user.create': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  /** Part 2 §6 "Edit rights", plus ORG_ADMIN for TECHNICIAN and ORG_ADMIN users of its organization (architecture §7b). */
  'user.edit': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  'user.resetPin': ['SUB_ADMIN', 'ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  'user.resetPassword': ['SUB_ADMIN', 'ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  /** "Only an admin-level actor": ADMIN and SUB_ADMIN, the roles the spec treats as admins. */
  'user.certify': ['ADMIN', 'SUB_ADMIN'],
  'user.reCertify': ['ADMIN', 'SUB_ADMIN'],
  /** Assign/Unassign and Transfer buttons (part 2 §6 "User list buttons"). */
  'user.assign': ['MANAGER', 'SUB_ADMIN', 'ADMIN', 'DISTRIBUTOR_ADMIN'],
  'user.transfer': ['MANAGER', 'SUB_ADMIN', 'ADMIN', 'DISTRIBUTOR_ADMIN'],
  /** Trainer and demo checkboxes (part 2 §6). */
  'user.setTrainerFlags': ['ADMIN', 'SUB_ADMIN'],
  /**
   * A MANAGER's organization links: managers have no organization, so only ADMIN and SUB_ADMIN see them (and a
   * manager reads its own links).
   */
  'user.manageLinks': ['ADMIN', 'SUB_ADMIN'],
} as const satisfies Record<string, readonly TUserType[]>;
export type TUserAction = keyof typeof USER_ACTIONS;

export const canUser = (role: TUserType, action: TUserAction): boolean =>
  (USER_ACTIONS[action] as readonly TUserType[]).includes(role);

/** The signed-in user as these rules need it (the session user of `GET user/` has these fields). */
export type TUserActor = { id: number; user_type: TUserType; organization: number | null };
/** The user acted on (a row of `organization/user/`). */
export type TUserTarget = {
  id: number;
  user_type: TUserType;
  organization: number | null;
  email?: string | null;
  ibe_training_status?: string;
};
/** An organization as the type rules need it (`organization_data` of a row, or a picked organization). */
export type TUserOrganizationFacts = { can_create_organization: boolean } | null;

/** Types no one but a platform admin (ADMIN, SUB_ADMIN) or a distributor admin may act on (part 2 §6). */
const HIGH_TYPES: readonly TUserType[] = ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN'];

/**
 * True when `target` is above what `actor` may touch: a level the actor does not hold (architecture §7b), and for roles
 * other than SUB_ADMIN, ADMIN and DISTRIBUTOR_ADMIN, any SUB_ADMIN, ADMIN or DISTRIBUTOR_ADMIN (part 2 §6).
 */
export function isAboveActor(actorType: TUserType, targetType: TUserType): boolean {
  if (ROLE_LEVEL[targetType] > ROLE_LEVEL[actorType]) return true;
  const actorIsHigh = HIGH_TYPES.includes(actorType);
  return !actorIsHigh && HIGH_TYPES.includes(targetType);
}

/**
 * The user types an actor may give (create, change to) for a user of `organization` (part 2 §6 "Allowed user
 * types", architecture §7b). The base list is ORG_ADMIN, TECHNICIAN (its second entry, TECHNICIAN, is the default);
 * DISTRIBUTOR_ADMIN when the organization is a distributor and the actor is SUB_ADMIN, ADMIN or DISTRIBUTOR_ADMIN;
 * MANAGER and CERVAICAL_REVIEWER for SUB_ADMIN and ADMIN; SUB_ADMIN and ADMIN for ADMIN alone.
 */
export function allowedUserTypes(actorType: TUserType, organization: TUserOrganizationFacts): TUserType[] {
  if (!canUser(actorType, 'user.create')) return [];
  const types: TUserType[] = ['ORG_ADMIN', 'TECHNICIAN'];
  const isDistributor = organization?.can_create_organization === true;
  if (
    isDistributor &&
    (actorType === 'ADMIN' || actorType === 'SUB_ADMIN' || actorType === 'DISTRIBUTOR_ADMIN')
  ) {
    types.push('DISTRIBUTOR_ADMIN');
  }
  if (actorType === 'ADMIN' || actorType === 'SUB_ADMIN') types.push('MANAGER', 'CERVAICAL_REVIEWER');
  if (actorType === 'ADMIN') types.push('SUB_ADMIN', 'ADMIN');
  return types;
}

/** Part 2 §5: the default user type is the second entry of the allowed list (TECHNICIAN, architecture §7b). */
export const defaultUserType = (allowed: readonly TUserType[]): TUserType | null =>
  allowed[1] ?? allowed[0] ?? null;

/**
 * Whether a user of this type belongs to an organization. MANAGER users reach organizations through their links and
 * ADMIN users the whole programme: neither is assigned (part 2 §4: "a user without an organization (other than
 * MANAGER or ADMIN) can be assigned").
 */
export const userTypeTakesOrganization = (type: TUserType): boolean => type !== 'MANAGER' && type !== 'ADMIN';

/** The type rule for a user of `type` in `organization`; null when fine, else which rule fails. */
export function userTypeOrganizationProblem(
  type: TUserType,
  organization: TUserOrganizationFacts,
): 'typeWithoutOrganization' | 'distributorNeedsDistributorOrganization' | null {
  if (organization !== null && !userTypeTakesOrganization(type)) return 'typeWithoutOrganization';
  if (type === 'DISTRIBUTOR_ADMIN' && organization?.can_create_organization !== true) {
    return 'distributorNeedsDistributorOrganization';
  }
  return null;
}

/**
 * Edit (part 2 §6, architecture §7b): ADMIN anyone; SUB_ADMIN and DISTRIBUTOR_ADMIN anyone not above their level;
 * MANAGER not SUB_ADMIN, ADMIN or DISTRIBUTOR_ADMIN users; ORG_ADMIN only TECHNICIAN and ORG_ADMIN users of its own
 * organization. Refused: 'Access denied for your permission level.' (403).
 */
export function canEditUser(actor: TUserActor, target: TUserTarget): boolean {
  if (!canUser(actor.user_type, 'user.edit') || isAboveActor(actor.user_type, target.user_type)) return false;
  if (actor.user_type === 'ORG_ADMIN') {
    return (
      (target.user_type === 'TECHNICIAN' || target.user_type === 'ORG_ADMIN') &&
      actor.organization !== null &&
      target.organization === actor.organization
    );
  }
  return true;
}

/** Reset Pin (part 2 §6), for a user not above the actor. */
export const canResetPin = (actor: TUserActor, target: TUserTarget): boolean =>
  canUser(actor.user_type, 'user.resetPin') && !isAboveActor(actor.user_type, target.user_type);

/** Reset Password (part 2 §6): the Reset Pin rule, and only when the user has an e-mail. */
export const canResetPassword = (actor: TUserActor, target: TUserTarget): boolean =>
  canUser(actor.user_type, 'user.resetPassword') &&
  !isAboveActor(actor.user_type, target.user_type) &&
  Boolean(target.email);

/** Types that are never certified (part 2 §6). */
export const NON_CERTIFIABLE_TYPES: readonly TUserType[] = ['MANAGER', 'CERVAICAL_REVIEWER', 'ADMIN'];

/** Why `target` cannot be certified, or null (part 2 §6: not CERTIFIED, a certifiable type, has an organization). */
export function certifyProblem(
  target: TUserTarget,
): 'alreadyCertified' | 'certifyType' | 'certifyNeedsOrganization' | null {
  if (NON_CERTIFIABLE_TYPES.includes(target.user_type)) return 'certifyType';
  if (target.ibe_training_status === 'CERTIFIED') return 'alreadyCertified';
  if (target.organization === null) return 'certifyNeedsOrganization';
  return null;
}

/** Certify button and `GET user/certify/{id}/` (part 2 §6). */
export const canCertify = (actor: TUserActor, target: TUserTarget): boolean =>
  canUser(actor.user_type, 'user.certify') && certifyProblem(target) === null;

/** `POST organization/user/{id}/re-certify/`: a certified user of a certifiable type, by ADMIN or SUB_ADMIN. */
export const canReCertify = (actor: TUserActor, target: TUserTarget): boolean =>
  canUser(actor.user_type, 'user.reCertify') &&
  !NON_CERTIFIABLE_TYPES.includes(target.user_type) &&
  target.ibe_training_status === 'CERTIFIED';

/**
 * Assign (a user without an organization; not MANAGER or ADMIN, part 2 §4) or Unassign (a user with one), for the
 * list's assign roles and a user not above the actor.
 */
export function canAssign(actor: TUserActor, target: TUserTarget): boolean {
  if (!canUser(actor.user_type, 'user.assign') || isAboveActor(actor.user_type, target.user_type))
    return false;
  if (actor.id === target.id) return false;
  return target.organization !== null || userTypeTakesOrganization(target.user_type);
}

/** Transfer: the same roles, for a user who has an organization (part 2 §6). */
export const canTransfer = (actor: TUserActor, target: TUserTarget): boolean =>
  canUser(actor.user_type, 'user.transfer') &&
  !isAboveActor(actor.user_type, target.user_type) &&
  actor.id !== target.id &&
  target.organization !== null;

/** Trainer and demo checkboxes are editable by ADMIN and SUB_ADMIN only (others see a read-only Yes when set). */
export const canSetTrainerFlags = (actorType: TUserType): boolean =>
  canUser(actorType, 'user.setTrainerFlags');

/** The trainer and demo flags are hidden for manager-type targets (part 2 §6). */
export const showsTrainerFlags = (targetType: TUserType): boolean => targetType !== 'MANAGER';

/** A MANAGER's organization links: shown and changed for MANAGER targets, by ADMIN and SUB_ADMIN. */
export const canManageOrganizationLinks = (actor: TUserActor, target: TUserTarget): boolean =>
  canUser(actor.user_type, 'user.manageLinks') && target.user_type === 'MANAGER';

/** Training and practice report downloads: ORG_ADMIN, DISTRIBUTOR_ADMIN and TECHNICIAN targets with such scans. */
export const showsTrainingReport = (targetType: TUserType, scanCount: number): boolean =>
  TRAINING_REPORT_TARGET_TYPES.includes(targetType) && scanCount > 0;

export type TUserRowAction = 'details' | 'assign' | 'unassign' | 'transfer';

/** The user list's row actions (part 2 §2.2, §6): Details always; Assign or Unassign; Transfer with an organization. */
export function userRowActions(actor: TUserActor, target: TUserTarget): TUserRowAction[] {
  const actions: TUserRowAction[] = ['details'];
  if (canAssign(actor, target)) actions.push(target.organization === null ? 'assign' : 'unassign');
  if (canTransfer(actor, target)) actions.push('transfer');
  return actions;
}
