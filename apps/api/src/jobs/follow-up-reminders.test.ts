// The daily follow-up reminders: each organization's run at its own local 08:00, once per local date; overdue read
// in the organization's zone; the digest's recipients and content; the patient SMS (consent, language, once per
// case and state); both switches. What was sent is read from the outbox table.
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { overdueFromDate, type TFollowUpStatus } from '@sc/shared/follow-up';
import { followUpCases, followUpEntries, followUpReminderRuns, followUpSettings, outboxMessages, patients } from '../db/schema/index.ts';
import { startOfLocalDay } from '../http/period.ts';
import { JOBS } from '../services/queue/jobs.ts';
import { setupTestApp } from '../test/app.ts';
import { createOrganization, createUser, uniqueMobile } from '../test/factories.ts';
import { FOLLOW_UP_REMINDERS_CRON, followUpRemindersJob, sendFollowUpReminders } from './follow-up-reminders.job.ts';

const t = await setupTestApp();
const { db } = t.database;
const DAY = 86_400_000;

const runAt = async (iso: string) => {
  t.clock.set(new Date(iso));
  return sendFollowUpReminders(t.app.ctx);
};
const runsOf = (done: Awaited<ReturnType<typeof sendFollowUpReminders>>, orgIds: number[]) =>
  done.filter((r) => orgIds.includes(r.organizationId)).map((r) => [r.organizationId, r.localDate]);

async function org(timezone: string, settings: Partial<typeof followUpSettings.$inferInsert> = {}) {
  const row = await createOrganization(t, { timezone, mobile: '+63-9170000000' });
  await db.insert(followUpSettings).values({
    organizationId: row.id,
    contactDays: 7,
    referralDays: 14,
    seenDays: 30,
    outcomeDays: 30,
    digestEnabled: true,
    smsEnabled: false,
    smsTexts: {},
    ...settings,
  });
  return row;
}

async function patientCase(
  o: { id: number; timezone: string },
  nextDue: string,
  p: { firstName?: string; lastName?: string; mobile?: string | null; consent?: boolean; language?: string | null; status?: TFollowUpStatus } = {},
) {
  const [patient] = await db
    .insert(patients)
    .values({
      firstName: p.firstName ?? 'Asha',
      lastName: p.lastName ?? 'Devi',
      mobile: p.mobile === undefined ? `+91-${uniqueMobile()}` : p.mobile,
      organizationId: o.id,
      reminderConsent: p.consent ?? false,
      consentLanguage: p.language ?? null,
    })
    .returning();
  const [kase] = await db
    .insert(followUpCases)
    .values({
      patientId: patient!.id,
      organizationId: o.id,
      status: p.status ?? 'OPEN',
      modalities: ['BREAST'],
      openedAt: new Date('2026-11-01T00:00:00Z'),
      nextDue,
      dueAt: startOfLocalDay(overdueFromDate(nextDue), o.timezone),
    })
    .returning();
  return { patient: patient!, kase: kase! };
}

const outbox = (channel: 'email' | 'sms', to: string[]) =>
  to.length ? db.select().from(outboxMessages).where(and(eq(outboxMessages.channel, channel), inArray(outboxMessages.to, to))) : Promise.resolve([]);

describe('follow-up-reminders: when each organization runs', () => {
  it('runs an organization once its local hour is 8 or later, once per local date', async () => {
    const manila = await org('Asia/Manila');
    const kolkata = await org('Asia/Kolkata');
    const la = await org('America/Los_Angeles');
    const ids = [manila.id, kolkata.id, la.id];

    // 01:00Z: Manila 09:00 on 12-01, Kolkata 06:30, Los Angeles 17:00 on 11-30.
    expect(runsOf(await runAt('2026-12-01T01:00:00Z'), ids)).toEqual([
      [manila.id, '2026-12-01'],
      [la.id, '2026-11-30'],
    ]);
    expect(runsOf(await runAt('2026-12-01T01:00:00Z'), ids)).toEqual([]);
    // 02:29Z: Kolkata 07:59, not yet; 02:30Z: 08:00.
    expect(runsOf(await runAt('2026-12-01T02:29:00Z'), ids)).toEqual([]);
    expect(runsOf(await runAt('2026-12-01T02:30:00Z'), ids)).toEqual([[kolkata.id, '2026-12-01']]);
    // Los Angeles reaches 08:00 on 12-01 at 16:00Z (PST, UTC-8).
    expect(runsOf(await runAt('2026-12-01T15:59:00Z'), ids)).toEqual([]);
    expect(runsOf(await runAt('2026-12-01T16:05:00Z'), ids)).toEqual([[la.id, '2026-12-01']]);
    expect(runsOf(await runAt('2026-12-01T23:05:00Z'), ids)).toEqual([]);
    // The next day: Manila again (its 12-02 at 09:00).
    expect(runsOf(await runAt('2026-12-02T01:00:00Z'), ids)).toEqual([[manila.id, '2026-12-02']]);

    const runs = await db.select().from(followUpReminderRuns).where(inArray(followUpReminderRuns.organizationId, ids));
    expect(runs.map((r) => [r.organizationId, r.localDate]).sort()).toEqual(
      [
        [manila.id, '2026-12-01'],
        [manila.id, '2026-12-02'],
        [kolkata.id, '2026-12-01'],
        [la.id, '2026-11-30'],
        [la.id, '2026-12-01'],
      ].sort(),
    );
  });

  it('skips a date another run already took (a second instance)', async () => {
    const manila = await org('Asia/Manila');
    const admin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: manila.id });
    await patientCase(manila, '2026-12-20');
    await db.insert(followUpReminderRuns).values({ organizationId: manila.id, localDate: '2026-12-22' });
    expect(runsOf(await runAt('2026-12-22T01:00:00Z'), [manila.id])).toEqual([]);
    expect(await outbox('email', [admin.email!])).toEqual([]);
  });

  it('is registered and scheduled at minute 5 of every hour', () => {
    expect(JOBS).toContain(followUpRemindersJob);
    expect(followUpRemindersJob.schedule?.cron).toBe(FOLLOW_UP_REMINDERS_CRON);
    expect(FOLLOW_UP_REMINDERS_CRON).toBe('5 * * * *');
  });
});

describe('follow-up-reminders: the digest', () => {
  it('counts only cases overdue in the organization zone and mails the users who follow them up', async () => {
    const manila = await org('Asia/Manila');
    const other = await org('Asia/Manila');
    // At 2026-12-10T01:00Z it is 12-10 09:00 in Manila: due 12-10 is not overdue, due 12-09 is.
    await patientCase(manila, '2026-12-10', { firstName: 'Today', lastName: 'Due' });
    const late = await patientCase(manila, '2026-12-09', { firstName: 'Asha', lastName: 'Devi' });
    const later = await patientCase(manila, '2026-12-01', { firstName: 'maria', lastName: 'santos', status: 'REFERRED' });
    await patientCase(manila, '2026-11-20', { status: 'CLOSED' });
    await patientCase(other, '2026-12-01');

    const orgAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: manila.id });
    const manager = await createUser(t, { userType: 'MANAGER', organizationId: manila.id });
    const distributor = await createUser(t, { userType: 'DISTRIBUTOR_ADMIN', organizationId: manila.id });
    // A MANAGER whose own organization is another one with nothing overdue, linked to Manila.
    const home = await org('Asia/Manila');
    const linked = await createUser(t, { userType: 'MANAGER', organizationId: home.id, linkedOrganizationIds: [manila.id] });
    const refused = [
      await createUser(t, { userType: 'ADMIN', organizationId: manila.id }),
      await createUser(t, { userType: 'SUB_ADMIN', organizationId: manila.id }),
      await createUser(t, { userType: 'TECHNICIAN', organizationId: manila.id }),
      await createUser(t, { userType: 'CERVAICAL_REVIEWER', organizationId: manila.id }),
      await createUser(t, { userType: 'ORG_ADMIN', organizationId: manila.id, isValid: false }),
    ];
    await createUser(t, { userType: 'ORG_ADMIN', organizationId: manila.id, email: null });
    const otherAdmin = await createUser(t, { userType: 'ORG_ADMIN', organizationId: other.id });

    const done = await runAt('2026-12-10T01:00:00Z');
    const run = done.find((r) => r.organizationId === manila.id);
    expect(run).toMatchObject({ localDate: '2026-12-10', overdueCases: 2, digestsSent: 4, smsSent: 0 });

    const recipients = [orgAdmin, manager, distributor, linked].map((u) => u.email!);
    const mails = await outbox('email', recipients);
    expect(mails.map((m) => m.to).sort()).toEqual([...recipients].sort());
    expect(await outbox('email', refused.map((u) => u.email!))).toEqual([]);
    // The other organization's digest goes to its own admin only, about its own case.
    const otherMails = await outbox('email', [otherAdmin.email!]);
    expect(otherMails.map((m) => m.subject)).toEqual([`${other.name}: 1 overdue follow-up case`]);

    const mail = mails[0]!;
    expect(mail.subject).toBe(`${manila.name}: 2 overdue follow-up cases`);
    const link = `${t.app.ctx.config.publicUrl.replace(/\/+$/, '')}/follow-up?organization=${manila.id}&overdue=true`;
    expect(mail.link).toBe(link);
    expect(mail.body).toContain(link);
    expect(mail.body).toContain(`${manila.name}: 2 overdue follow-up cases on 2026-12-10.`);
    const lines = mail.body.split('\n');
    const rowOf = (id: number) => lines.find((l) => l.startsWith(`#${id} `)) ?? '';
    // Most overdue first: due 12-01 (9 days), then 12-09 (1 day).
    expect(lines.findIndex((l) => l.startsWith(`#${later.kase.id} `))).toBeLessThan(lines.findIndex((l) => l.startsWith(`#${late.kase.id} `)));
    expect(rowOf(later.kase.id).split(/\s{2,}/)).toEqual([`#${later.kase.id}`, 'M.S.', 'Referred', '2026-12-01', '9', '-']);
    expect(rowOf(late.kase.id).split(/\s{2,}/)).toEqual([`#${late.kase.id}`, 'A.D.', 'Open', '2026-12-09', '1', '-']);
    expect(mail.body).not.toMatch(/Asha|Devi|maria|santos|Today|finding|positive|malignan|lesion|symptom/i);
    expect(mail.body).not.toContain(late.patient.mobile!);
  });

  it('sends nothing twice when the job runs again, and nothing when the digest is off or nothing is overdue', async () => {
    const on = await org('Asia/Kolkata');
    const off = await org('Asia/Kolkata', { digestEnabled: false });
    const none = await org('Asia/Kolkata');
    await patientCase(on, '2026-12-12');
    await patientCase(off, '2026-12-12');
    await patientCase(none, '2026-12-20');
    const users = await Promise.all([on, off, none].map((o) => createUser(t, { userType: 'ORG_ADMIN', organizationId: o.id })));

    // Two instances at once, then a later hour of the same local date.
    await Promise.all([runAt('2026-12-15T03:00:00Z'), runAt('2026-12-15T03:00:00Z')]);
    await runAt('2026-12-15T09:05:00Z');
    expect((await outbox('email', [users[0]!.email!])).length).toBe(1);
    expect(await outbox('email', [users[1]!.email!, users[2]!.email!])).toEqual([]);
    const [offRun] = await db.select().from(followUpReminderRuns).where(eq(followUpReminderRuns.organizationId, off.id));
    expect(offRun).toMatchObject({ localDate: '2026-12-15', overdueCases: 1, digestsSent: 0, smsSent: 0 });

    // The next local day: a new digest.
    await runAt(new Date(Date.parse('2026-12-15T03:00:00Z') + DAY).toISOString());
    expect((await outbox('email', [users[0]!.email!])).length).toBe(2);
  });
});

describe('follow-up-reminders: the patient SMS', () => {
  const texts = {
    en: 'Dear {first_name}, please call {organization} on {organization_phone}.',
    hi: 'Namaste {first_name}, {organization} ko {organization_phone} par call karein.',
  };

  it('texts consenting patients with a text in their language, once per case and state', async () => {
    const o = await org('Asia/Manila', { smsEnabled: true, smsTexts: texts });
    const en = await patientCase(o, '2026-12-01', { firstName: 'Asha', consent: true, language: 'en' });
    const hi = await patientCase(o, '2026-12-01', { firstName: 'Priya', consent: true, language: 'hi' });
    const noConsent = await patientCase(o, '2026-12-01', { consent: false, language: 'en' });
    const noText = await patientCase(o, '2026-12-01', { consent: true, language: 'ta' });
    const noLanguage = await patientCase(o, '2026-12-01', { consent: true, language: null });
    await patientCase(o, '2026-12-01', { consent: true, language: 'en', mobile: null });
    const notOverdue = await patientCase(o, '2026-12-31', { consent: true, language: 'en' });

    const [run] = runsOf(await runAt('2026-12-05T01:00:00Z'), [o.id]);
    expect(run).toEqual([o.id, '2026-12-05']);
    const sent = await outbox('sms', [en, hi, noConsent, noText, noLanguage, notOverdue].map((c) => c.patient.mobile!));
    expect(sent.map((m) => [m.to, m.body]).sort()).toEqual(
      [
        [en.patient.mobile, `Dear Asha, please call ${o.name} on +63-9170000000.`],
        [hi.patient.mobile, `Namaste Priya, ${o.name} ko +63-9170000000 par call karein.`],
      ].sort(),
    );
    const [runRow] = await db.select().from(followUpReminderRuns).where(eq(followUpReminderRuns.organizationId, o.id));
    expect(runRow).toMatchObject({ overdueCases: 6, smsSent: 2 });

    const entries = await db.select().from(followUpEntries).where(eq(followUpEntries.caseId, en.kase.id));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: 'SMS_REMINDER',
      actorId: null,
      data: { language: 'en', to: `+91-******${en.patient.mobile!.slice(-4)}` },
    });
    const [kase] = await db.select().from(followUpCases).where(eq(followUpCases.id, en.kase.id));
    expect(kase).toMatchObject({ smsRemindedStatus: 'OPEN', lastActionKind: 'SMS_REMINDER' });
    const [untouched] = await db.select().from(followUpCases).where(eq(followUpCases.id, noConsent.kase.id));
    expect(untouched!.smsRemindedStatus).toBeNull();

    // Next day, same state: no second SMS.
    await runAt('2026-12-06T01:00:00Z');
    expect(await outbox('sms', [en.patient.mobile!])).toHaveLength(1);

    // Moved to CONTACTED and overdue there: reminded again, once.
    await db
      .update(followUpCases)
      .set({ status: 'CONTACTED', nextDue: '2026-12-06', dueAt: startOfLocalDay('2026-12-07', o.timezone) })
      .where(eq(followUpCases.id, en.kase.id));
    await runAt('2026-12-06T23:59:00Z'); // 12-07 07:59 in Manila: not yet the run.
    expect(await outbox('sms', [en.patient.mobile!])).toHaveLength(1);
    await runAt('2026-12-07T01:00:00Z');
    await runAt('2026-12-08T01:00:00Z');
    const again = await outbox('sms', [en.patient.mobile!]);
    expect(again).toHaveLength(2);
    const [moved] = await db.select().from(followUpCases).where(eq(followUpCases.id, en.kase.id));
    expect(moved!.smsRemindedStatus).toBe('CONTACTED');
    // The SMS never says why.
    expect(again.every((m) => !/finding|positive|malignan|lesion|screen|breast/i.test(m.body))).toBe(true);
  });

  it('sends no SMS when the organization has SMS reminders off', async () => {
    const o = await org('Asia/Manila', { smsEnabled: false, smsTexts: texts });
    const c = await patientCase(o, '2026-12-01', { consent: true, language: 'en' });
    await runAt('2026-12-10T01:00:00Z');
    expect(await outbox('sms', [c.patient.mobile!])).toEqual([]);
    const entries = await db.select().from(followUpEntries).where(eq(followUpEntries.caseId, c.kase.id));
    expect(entries).toEqual([]);
  });
});
