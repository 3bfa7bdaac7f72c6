// `npm run create-admin`: the first ADMIN of a database that production left empty (no demo data). The options are
// read with the users area's own rules (ZUserInput, parseMobile), the user is written like the console's "create user"
// writes one, and the same set-password link is issued, e-mailed, and returned for the operator to print: no
// password ever passes through the command line. `runCreateAdmin` answers an exit code and the lines to print, so the
// tests drive it without a child process (admin/cli.ts opens the database and prints).
import { parseArgs } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { DEFAULT_COUNTRY_CODE } from '@sc/shared/constants';
import { ZUserInput, USER_MESSAGES } from '@sc/shared/user-input';
import { MESSAGES, parseMobile } from '@sc/shared/validation';
import type { AppContext } from '../app.ts';
import { withStartupLock } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import * as q from '../modules/users/organization-users.queries.ts';
import { USER_AUDIT, freeUsername, uniqueViolation } from '../modules/users/organization-users.service.ts';
import { sendPasswordLink } from '../modules/users/user-password-links.ts';

export const USAGE =
  'Usage: npm run create-admin -- --email E --name "First Last" [--mobile +91…] [--country IN] [--if-none]';

/** 0 done (or nothing to do with --if-none), 1 refused (the e-mail or mobile is taken), 2 a wrong command line. */
export type CreateAdminResult = { code: 0 | 1 | 2; lines: string[]; userId?: number; link?: string };

export type CreateAdminContext = Pick<AppContext, 'config' | 'database' | 'now'> & {
  services: Pick<AppContext['services'], 'mail' | 'audit'>;
};

type AdminInput = {
  first_name: string;
  last_name: string;
  email: string;
  mobile: string | null;
  country: string;
  ifNone: boolean;
};

// The option each ZUserInput field came from, to name it in the one error line.
const OPTION_OF: Record<string, string> = {
  first_name: '--name',
  last_name: '--name',
  email: '--email',
  mobile: '--mobile',
  mobile_country_code: '--country',
};

/** The command line read with the API's own rules; a string is the one line that says what is wrong. */
export function parseCreateAdminArgs(argv: string[]): AdminInput | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        mobile: { type: 'string' },
        country: { type: 'string' },
        organization: { type: 'string' },
        'if-none': { type: 'boolean', default: false },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    return `${(error as Error).message.split('\n')[0]} ${USAGE}`;
  }
  // The data model gives an ADMIN no organization (userTypeTakesOrganization in @sc/shared/user-permissions: the API
  // refuses one), so there is none to create here; organizations are made in the console once signed in.
  if (values.organization !== undefined) {
    return '--organization: an ADMIN belongs to no organization (it sees them all); create organizations in the console once signed in.';
  }
  if (values.email === undefined)
    return `--email is required (the set-password link is sent to it). ${USAGE}`;
  if (values.name === undefined) return `--name is required. ${USAGE}`;
  // One --name, as an operator types it: the first word is the first name, the rest the last name (both required
  // by the users area, as in the console's form).
  const name = values.name.trim();
  const space = name.search(/\s/);
  if (space < 0) return `--name: give a first and a last name, e.g. --name "Asha Rao".`;
  const mobile = values.mobile?.trim() || null;
  // The country of a +… mobile is the number's own; without a mobile it is --country, else the programme's default.
  const country =
    values.country?.trim() || (mobile ? (parseMobile(mobile)?.country ?? '') : DEFAULT_COUNTRY_CODE);
  if (mobile && !country)
    return `--mobile: ${MESSAGES.invalidPhone} Give it with its dial code, e.g. +91 98765 43210.`;
  const parsed = ZUserInput.safeParse({
    first_name: name.slice(0, space),
    last_name: name.slice(space).trim(),
    user_type: 'ADMIN',
    email: values.email,
    mobile,
    mobile_country_code: country,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? 'email');
    return `${OPTION_OF[field] ?? `--${field}`}: ${issue.message}`;
  }
  const input = parsed.data;
  // ZUserInput accepts a user without e-mail (a mobile suffices); the link goes by e-mail, so this one needs it.
  if (!input.email) return `--email: ${MESSAGES.invalidEmail}`;
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    mobile: input.mobile ?? null,
    country: input.mobile_country_code,
    ifNone: values['if-none'],
  };
}

/**
 * Creates the ADMIN and issues its set-password link. Runs under the start-up lock (db/client.ts), so two of these
 * (or one and a server loading the demo) on one PostgreSQL database take turns: `--if-none` run twice at once makes
 * one ADMIN. The caller has brought the schema to head.
 */
export async function runCreateAdmin(ctx: CreateAdminContext, argv: string[]): Promise<CreateAdminResult> {
  const input = parseCreateAdminArgs(argv);
  if (typeof input === 'string') return { code: 2, lines: [input] };
  return withStartupLock(ctx.database, () => createAdmin(ctx, input));
}

async function createAdmin(ctx: CreateAdminContext, input: AdminInput): Promise<CreateAdminResult> {
  const { db } = ctx.database;
  if (input.ifNone) {
    // A disabled or deleted ADMIN (is_valid false) cannot sign in, so it does not count: the database still has no way in.
    const [admin] = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.userType, 'ADMIN'), eq(users.isValid, true)))
      .limit(1);
    if (admin)
      return { code: 0, lines: [`An ADMIN already exists (user ${admin.id}); nothing done (--if-none).`] };
  }
  const taken = await q.findTakenContacts(db, { email: input.email, mobile: input.mobile });
  if (taken.email) return { code: 1, lines: [`--email: ${USER_MESSAGES.duplicateEmail} (${input.email})`] };
  if (taken.mobile)
    return { code: 1, lines: [`--mobile: ${USER_MESSAGES.duplicateMobile} (${input.mobile})`] };

  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const at = ctx.now();
      const newId = await q.insertUser(tx, {
        firstName: input.first_name,
        lastName: input.last_name,
        username: await freeUsername(tx, input),
        email: input.email,
        mobile: input.mobile,
        mobileCountryCode: input.country,
        userType: 'ADMIN',
        organizationId: null,
        isTrainer: false,
        isAvailableDemo: false,
        createdBy: null,
        at,
      });
      // No actor: the operator at the server's shell made it; `via` says so in the log.
      await ctx.services.audit.record(
        {
          action: USER_AUDIT.created,
          actorId: null,
          targetType: 'user',
          targetId: newId,
          details: {
            user_type: 'ADMIN',
            organization: null,
            has_email: true,
            has_mobile: input.mobile !== null,
            via: 'create-admin',
          },
        },
        tx,
      );
      return newId;
    });
  } catch (error) {
    // A user with that e-mail or mobile written since the check (a console on the same database).
    const constraint = uniqueViolation(error);
    if (constraint === 'users_email_uq')
      return { code: 1, lines: [`--email: ${USER_MESSAGES.duplicateEmail} (${input.email})`] };
    if (constraint === 'users_mobile_uq')
      return { code: 1, lines: [`--mobile: ${USER_MESSAGES.duplicateMobile} (${input.mobile})`] };
    throw error;
  }

  const sent = await sendPasswordLink(
    ctx,
    { id, email: input.email, firstName: input.first_name },
    'set_password',
  );
  await ctx.services.audit.record({
    action: USER_AUDIT.passwordLinkSent,
    actorId: null,
    targetType: 'user',
    targetId: id,
    details: { purpose: 'set_password', email: input.email, via: 'create-admin' },
  });
  const mail =
    sent.mail.status === 'sent'
      ? `e-mailed to ${input.email}`
      : sent.mail.status === 'failed'
        ? `NOT e-mailed (SMTP: ${sent.mail.lastError ?? 'delivery failed'}); kept in the outbox for a retry`
        : 'not e-mailed (no SMTP_URL): kept in the outbox';
  return {
    code: 0,
    userId: id,
    link: sent.link,
    lines: [
      `Created ADMIN ${input.first_name} ${input.last_name} <${input.email}> (user ${id}).`,
      `Set-password link, ${mail}. It works once, until ${sent.expiresAt.toISOString()}:`,
      sent.link,
    ],
  };
}
