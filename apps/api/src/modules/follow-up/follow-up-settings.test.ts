import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  FOLLOW_UP_AUDIT,
  FOLLOW_UP_MESSAGES,
  defaultFollowUpSettings,
  type TFollowUpSettings,
} from '@sc/shared/follow-up';
import { auditLog, followUpCases } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createLanguage, createOrganization } from '../../test/factories.ts';
import { createCase, userToken } from './follow-up.fixtures.ts';

const t = await setupTestApp();
const NOW = new Date('2026-11-20T12:00:00Z');
t.clock.set(NOW);
await createLanguage(t, { name: 'English', isoCode: 'en' });
await createLanguage(t, { name: 'Hindi', isoCode: 'HI' });

const org = await createOrganization(t, { name: 'Settings clinic', timezone: 'America/Los_Angeles' });
const other = await createOrganization(t, { name: 'Other clinic' });
const { token } = await userToken(t, 'ORG_ADMIN', { organizationId: org.id });
const url = (id: number) => `/api/v1/organization/${id}/follow-up-settings/`;
const call = (method: 'GET' | 'PUT' | 'PATCH', id: number, payload?: object, tok = token) =>
  t.app.inject({ method, url: url(id), headers: auth(tok), ...(payload ? { payload } : {}) });
const full = {
  contact_days: 3,
  referral_days: 10,
  seen_days: 20,
  outcome_days: 15,
  digest_enabled: false,
  sms_enabled: true,
  sms_texts: { en: 'Dear {first_name}, call {organization} on {organization_phone}.', hi: 'नमस्ते {first_name}' },
};
const stored = async (id: number) => (await t.database.db.select().from(followUpCases).where(eq(followUpCases.id, id)))[0]!;

describe('organization/{id}/follow-up-settings/', () => {
  it('answers the defaults (is_custom false) until the organization saves its own; 404 outside the scope', async () => {
    const res = await call('GET', org.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(defaultFollowUpSettings(org.id));
    expect((await call('GET', other.id)).statusCode).toBe(404);
    expect((await call('PUT', other.id, full)).statusCode).toBe(404);
    const { token: admin } = await userToken(t, 'ADMIN');
    expect((await call('GET', other.id, undefined, admin)).statusCode).toBe(200);
  });

  it('saves with PUT and PATCH, audits, and recomputes the due dates of active cases only', async () => {
    // Opened 2026-11-10 LA; CONTACTED since 2026-11-15 LA; a closed case keeps no due date.
    const open = await createCase(t, org.id, { openedAt: new Date('2026-11-10T20:00:00Z'), timeZone: 'America/Los_Angeles' });
    const contacted = await createCase(t, org.id, {
      status: 'CONTACTED',
      openedAt: new Date('2026-11-01T20:00:00Z'),
      statusChanged: new Date('2026-11-15T20:00:00Z'),
      timeZone: 'America/Los_Angeles',
    });
    const closed = await createCase(t, org.id, { status: 'DECLINED', openedAt: new Date('2026-11-01T20:00:00Z') });
    const elsewhere = await createCase(t, other.id, { openedAt: new Date('2026-11-10T20:00:00Z') });
    const before = (await stored(elsewhere.id)).nextDue;

    const put = await call('PUT', org.id, full);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ ...full, organization: org.id, is_custom: true });
    expect(await stored(open.id)).toMatchObject({ nextDue: '2026-11-13' });
    expect((await stored(open.id)).dueAt?.toISOString()).toBe('2026-11-14T08:00:00.000Z');
    expect((await stored(contacted.id)).nextDue).toBe('2026-11-25');
    expect(await stored(closed.id)).toMatchObject({ nextDue: null, dueAt: null });
    expect((await stored(elsewhere.id)).nextDue).toBe(before);

    const patch = await call('PATCH', org.id, { contact_days: 30, sms_texts: { en: 'Hi {first_name}', hi: '' } });
    expect(patch.statusCode).toBe(200);
    expect(patch.json<TFollowUpSettings>()).toMatchObject({ contact_days: 30, referral_days: 10, sms_texts: { en: 'Hi {first_name}' } });
    expect((await stored(open.id)).nextDue).toBe('2026-12-10');
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, FOLLOW_UP_AUDIT.settings), eq(auditLog.targetId, String(org.id))));
    expect(audits).toHaveLength(2);
  });

  it('refuses bad input on its field and changes nothing', async () => {
    const target = await createOrganization(t, { name: 'Bad input clinic' });
    const { token: admin } = await userToken(t, 'ADMIN');
    const bad: [object, string, string][] = [
      [{ ...full, contact_days: 0 }, 'contact_days', FOLLOW_UP_MESSAGES.dueDays],
      [{ ...full, seen_days: 400 }, 'seen_days', FOLLOW_UP_MESSAGES.dueDays],
      [{ ...full, referral_days: 'abc' }, 'referral_days', FOLLOW_UP_MESSAGES.dueDays],
      [{ ...full, sms_texts: { fr: 'Bonjour {first_name}' } }, 'sms_texts.fr', FOLLOW_UP_MESSAGES.smsLanguageUnknown],
      [{ ...full, sms_texts: { en: 'Your result: {finding}' } }, 'sms_texts.en', FOLLOW_UP_MESSAGES.smsTextPlaceholder],
      [{ ...full, sms_enabled: true, sms_texts: {} }, 'sms_texts', FOLLOW_UP_MESSAGES.smsTextRequired],
    ];
    for (const [payload, field, message] of bad) {
      for (const method of ['PUT', 'PATCH'] as const) {
        const res = await call(method, target.id, payload, admin);
        expect(res.statusCode, `${method} ${field}`).toBe(400);
        expect((res.json() as Record<string, string[]>)[field], `${method} ${field}`).toEqual([message]);
      }
    }
    expect((await call('PATCH', target.id, { outcome_days: 0 }, admin)).statusCode).toBe(400);
    expect((await call('GET', target.id, undefined, admin)).json()).toEqual(defaultFollowUpSettings(target.id));
  });
});
