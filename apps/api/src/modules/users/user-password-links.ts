// Password links an administrator causes to be sent (part 2 §7: "Password reset email is sent … after a user with an
// email is created, or on demand"). The same single-use, hashed links as the auth module's forgot-password flow
// (one_time_codes, architecture §5), opened on the console's reset-password page, which POST
// auth/password-reset/confirm/ completes for both purposes. The e-mail goes through the mail service (the outbox
// without SMTP).
import { PASSWORD_RESET_TTL_SECONDS } from '@sc/shared/constants';
import { SET_PASSWORD_TTL_SECONDS } from '@sc/shared/user-input';
import type { AppContext } from '../../app.ts';
import { AppError } from '../../http/errors.ts';
import { AUTH_MESSAGES } from '@sc/shared/auth';
import { countCodesForUserSince, insertCode, invalidateCodes, lockSignInKey } from '../auth/auth.queries.ts';
import { RESET_EMAILS_PER_HOUR } from '../auth/auth.service.ts';
import { generateToken, sha256 } from '../../services/tokens.ts';
import type { OutboxRow } from '../../services/outbox.service.ts';

// Only the mail service: the create-admin command builds no app (admin/create-admin.ts).
type LinkContext = Pick<AppContext, 'config' | 'database' | 'now'> & {
  services: Pick<AppContext['services'], 'mail'>;
};
const HOUR_MS = 3_600_000;

export type PasswordLinkPurpose = 'set_password' | 'password_reset';

/** The link sent, when it expires, and the outbox row of its e-mail (status sent, stored or failed). */
export type SentPasswordLink = { link: string; expiresAt: Date; mail: OutboxRow };

/**
 * Stores a new link for the user (earlier unused links of both kinds stop working) and e-mails it. A reset link
 * counts towards the account's hourly cap of the forgot-password flow, so an administrator cannot flood a mailbox.
 * Returns the link too: `npm run create-admin` prints it, the only way in before mail is set up (admin/create-admin.ts).
 */
export async function sendPasswordLink(
  ctx: LinkContext,
  user: { id: number; email: string; firstName: string },
  purpose: PasswordLinkPurpose,
): Promise<SentPasswordLink> {
  const token = generateToken(32);
  const ttlSeconds = purpose === 'set_password' ? SET_PASSWORD_TTL_SECONDS : PASSWORD_RESET_TTL_SECONDS;
  const expiresAt = await ctx.database.db.transaction(async (tx) => {
    await lockSignInKey(tx, `password_reset:${user.id}`);
    const at = ctx.now();
    if (
      purpose === 'password_reset' &&
      (await countCodesForUserSince(tx, 'password_reset', user.id, new Date(at.getTime() - HOUR_MS))) >=
        RESET_EMAILS_PER_HOUR
    ) {
      throw new AppError('rate_limited', AUTH_MESSAGES.tooManyAttempts, undefined, { 'retry-after': '3600' });
    }
    await invalidateCodes(tx, ['password_reset', 'set_password'], { userId: user.id }, at);
    await insertCode(tx, {
      purpose,
      target: user.email,
      userId: user.id,
      codeHash: sha256(token),
      created: at,
      expiresAt: new Date(at.getTime() + ttlSeconds * 1000),
    });
    return new Date(at.getTime() + ttlSeconds * 1000);
  });
  const link = `${ctx.config.publicUrl.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
  const greeting = `Hello${user.firstName ? ` ${user.firstName}` : ''},`;
  const message =
    purpose === 'set_password'
      ? {
          subject: 'Set your Screening Console password',
          lines: [
            'An account has been created for you on the Screening Console.',
            'Open this link to choose your password. It works once and expires in 7 days:',
          ],
        }
      : {
          subject: 'Reset your Screening Console password',
          lines: [
            'An administrator asked for a new password link for your account.',
            'Open this link to choose a new password. It works once and expires in one hour:',
          ],
        };
  const mail = await ctx.services.mail.send({
    to: user.email,
    subject: message.subject,
    body: [greeting, '', ...message.lines, link, '', 'If you did not expect this e-mail, ignore it.'].join(
      '\n',
    ),
    link,
  });
  return { link, expiresAt, mail };
}
