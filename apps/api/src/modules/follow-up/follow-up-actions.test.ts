import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  FOLLOW_UP_AUDIT,
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_MOVES,
  FOLLOW_UP_STATUSES,
  FOLLOW_UP_WEBHOOK_EVENT,
  type TFollowUpCase,
  type TFollowUpRow,
  type TFollowUpStatus,
} from '@sc/shared/follow-up';
import type { TPaginated } from '@sc/shared/list';
import { auditLog, followUpCases, followUpEntries, webhookDeliveries } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization } from '../../test/factories.ts';
import { createCase, userToken } from './follow-up.fixtures.ts';

const t = await setupTestApp();
const NOW = new Date('2026-11-20T12:00:00Z');
t.clock.set(NOW);
const days = (n: number) => n * 86_400_000;

const org = await createOrganization(t, { name: 'Moves clinic', timezone: 'Asia/Kolkata' });
const { user: admin, token } = await userToken(t, 'ADMIN');

const act = (id: number, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1/follow-up/${id}/actions/`, headers: { ...auth(token), ...headers }, payload });
const entriesOf = (id: number) => t.database.db.select().from(followUpEntries).where(eq(followUpEntries.caseId, id));
const stored = async (id: number) => (await t.database.db.select().from(followUpCases).where(eq(followUpCases.id, id)))[0]!;
const actionAudits = (id: number) =>
  t.database.db.select().from(auditLog).where(and(eq(auditLog.action, FOLLOW_UP_AUDIT.action), eq(auditLog.targetId, String(id))));
const deliveriesOf = (id: number) => t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.followUpCaseId, id));
const OPENED = new Date(NOW.getTime() - days(10));
const closeFields = { outcome: 'BENIGN', diagnosis_date: '2026-11-19', facility: 'District hospital' };

describe('POST follow-up/{id}/actions/ moves', () => {
  it('makes every move FOLLOW_UP_MOVES allows and refuses every other pair, changing nothing', async () => {
    for (const from of FOLLOW_UP_STATUSES) {
      for (const to of FOLLOW_UP_STATUSES) {
        const kase = await createCase(t, org.id, { status: from, openedAt: OPENED, statusChanged: OPENED });
        const res = await act(kase.id, { kind: 'STATUS_CHANGE', status: to, ...(to === 'CLOSED' ? closeFields : {}) });
        if (FOLLOW_UP_MOVES[from].includes(to)) {
          expect(res.statusCode, `${from} → ${to}`).toBe(201);
          const body = res.json<TFollowUpCase>();
          expect(body.status).toBe(to);
          expect(body.timeline.at(-1)).toMatchObject({ kind: 'STATUS_CHANGE', from_status: from, to_status: to, by: { id: admin.id } });
          expect(body.next_statuses).toEqual([...FOLLOW_UP_MOVES[to]]);
          const row = await stored(kase.id);
          expect(row.statusChanged.toISOString()).toBe(NOW.toISOString());
          if (to === 'CLOSED') expect(row).toMatchObject({ outcome: 'BENIGN', diagnosisDate: '2026-11-19', diagnosisFacility: 'District hospital', nextDue: null, dueAt: null });
          expect(await actionAudits(kase.id)).toHaveLength(1);
        } else {
          expect(res.statusCode, `${from} → ${to}`).toBe(400);
          expect(res.json()).toEqual({ status: [FOLLOW_UP_MESSAGES.statusMove(from, to)] });
          expect(await entriesOf(kase.id)).toHaveLength(1);
          expect((await stored(kase.id)).status).toBe(from);
          expect(await actionAudits(kase.id)).toEqual([]);
          expect(await deliveriesOf(kase.id)).toEqual([]);
        }
      }
    }
  });

  it('recomputes the due date from the move in the organization zone', async () => {
    const kase = await createCase(t, org.id, { openedAt: OPENED });
    const body = (await act(kase.id, { kind: 'STATUS_CHANGE', status: 'CONTACTED' })).json<TFollowUpCase>();
    // Entered CONTACTED on 2026-11-20 (Kolkata), referral within 14 days.
    expect(body.next_due).toBe('2026-12-04');
    expect((await stored(kase.id)).dueAt?.toISOString()).toBe('2026-12-04T18:30:00.000Z');
  });

  it('moves by itself on a contact that reached the patient and on a referral, after the action entry', async () => {
    const kase = await createCase(t, org.id, { openedAt: OPENED });
    const noAnswer = (await act(kase.id, { kind: 'CONTACT_ATTEMPT', method: 'CALL', result: 'NO_ANSWER' })).json<TFollowUpCase>();
    expect(noAnswer.status).toBe('OPEN');
    const reached = await act(kase.id, { kind: 'CONTACT_ATTEMPT', method: 'SMS', result: 'REACHED', note: 'spoke' });
    expect(reached.statusCode).toBe(201);
    const body = reached.json<TFollowUpCase>();
    expect(body.status).toBe('CONTACTED');
    expect(body.timeline.slice(-2).map((e) => [e.kind, e.to_status])).toEqual([
      ['CONTACT_ATTEMPT', null],
      ['STATUS_CHANGE', 'CONTACTED'],
    ]);
    expect(body.timeline.at(-2)).toMatchObject({ data: { method: 'SMS', result: 'REACHED' }, note: 'spoke' });
    const referred = (
      await act(kase.id, { kind: 'REFERRAL', facility: 'City hospital', referral_date: '2026-11-20', appointment_date: '2026-11-25' })
    ).json<TFollowUpCase>();
    expect(referred.status).toBe('REFERRED');
    expect(referred.last_action?.kind).toBe('STATUS_CHANGE');
    expect(referred.timeline.at(-2)).toMatchObject({ kind: 'REFERRAL', data: { facility: 'City hospital', appointment_date: '2026-11-25' } });
    const again = (await act(kase.id, { kind: 'REFERRAL', facility: 'Other', referral_date: '2026-11-20' })).json<TFollowUpCase>();
    expect(again.status).toBe('REFERRED');
    expect(again.timeline.at(-1)!.kind).toBe('REFERRAL');
  });

  it('checks the closing rules: outcome, site for MALIGNANT only, diagnosis date not future nor before the positive', async () => {
    const kase = await createCase(t, org.id, { status: 'SEEN', openedAt: OPENED, statusChanged: OPENED });
    const close = (fields: object) => act(kase.id, { kind: 'STATUS_CHANGE', status: 'CLOSED', ...fields });
    const cases: [object, Record<string, string[]>][] = [
      [{}, { outcome: [FOLLOW_UP_MESSAGES.outcomeRequired] }],
      [{ outcome: 'MALIGNANT', diagnosis_date: '2026-11-19' }, { site: [FOLLOW_UP_MESSAGES.siteRequired] }],
      [{ outcome: 'BENIGN', site: 'BREAST', diagnosis_date: '2026-11-19' }, { site: [FOLLOW_UP_MESSAGES.siteOnlyMalignant] }],
      [{ outcome: 'BENIGN' }, { diagnosis_date: [FOLLOW_UP_MESSAGES.diagnosisDateRequired] }],
      [{ outcome: 'BENIGN', diagnosis_date: '2026-11-21' }, { diagnosis_date: [FOLLOW_UP_MESSAGES.diagnosisDateFuture] }],
      [{ outcome: 'BENIGN', diagnosis_date: '2026-11-09' }, { diagnosis_date: [FOLLOW_UP_MESSAGES.diagnosisDateBeforeOpened] }],
    ];
    for (const [fields, errors] of cases) {
      const res = await close(fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json()).toEqual(errors);
    }
    expect(await entriesOf(kase.id)).toHaveLength(1);
    // Today in Auckland is already 2026-11-21: the caller's zone decides "future".
    const ok = await close({ outcome: 'MALIGNANT', site: 'BREAST', diagnosis_date: '2026-11-21' });
    expect(ok.statusCode).toBe(400);
    const auckland = await act(
      kase.id,
      { kind: 'STATUS_CHANGE', status: 'CLOSED', outcome: 'MALIGNANT', site: 'BREAST', diagnosis_date: '2026-11-21' },
      { timezone: 'Pacific/Auckland' },
    );
    expect(auckland.statusCode).toBe(201);
    expect(auckland.json<TFollowUpCase>()).toMatchObject({ status: 'CLOSED', outcome: 'MALIGNANT', site: 'BREAST', diagnosis_date: '2026-11-21', closed: NOW.toISOString() });
    const contact = await act(kase.id, { kind: 'CONTACT_ATTEMPT', method: 'CALL', result: 'REACHED' });
    expect(contact.json()).toEqual({ non_field_errors: [FOLLOW_UP_MESSAGES.closedCase] });
    expect((await act(kase.id, { kind: 'NOTE', note: 'after close' })).statusCode).toBe(201);
  });

  it('corrects an entry of the case (never another case), and restates the outcome of a CLOSED case', async () => {
    const kase = await createCase(t, org.id, { status: 'CLOSED', openedAt: OPENED, statusChanged: NOW });
    const other = await createCase(t, org.id, { openedAt: OPENED });
    const [opened] = await entriesOf(kase.id);
    const [otherEntry] = await entriesOf(other.id);
    const foreign = await act(kase.id, { kind: 'CORRECTION', corrects: otherEntry!.id, note: 'wrong case' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ corrects: [FOLLOW_UP_MESSAGES.correctsUnknown] });
    const res = await act(kase.id, { kind: 'CORRECTION', corrects: opened!.id, note: 'was malignant', outcome: 'MALIGNANT', site: 'CERVIX', diagnosis_date: '2026-11-18' });
    expect(res.statusCode).toBe(201);
    const body = res.json<TFollowUpCase>();
    expect(body).toMatchObject({ status: 'CLOSED', outcome: 'MALIGNANT', site: 'CERVIX', diagnosis_date: '2026-11-18' });
    const correction = body.timeline.at(-1)!;
    expect(correction).toMatchObject({ kind: 'CORRECTION', corrects: opened!.id, note: 'was malignant' });
    expect(body.timeline[0]!.corrected_by).toEqual([correction.id]);
    const onOpen = await act(other.id, { kind: 'CORRECTION', corrects: otherEntry!.id, note: 'x', outcome: 'BENIGN' });
    expect(onOpen.json()).toEqual({ outcome: [FOLLOW_UP_MESSAGES.outcomeOnlyOnClose] });
  });

  it('keeps the timeline append-only: a direct UPDATE or DELETE of an entry throws', async () => {
    const kase = await createCase(t, org.id);
    await expect(t.database.db.execute(sql`update follow_up_entries set note = 'edited' where case_id = ${kase.id}`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from follow_up_entries where case_id = ${kase.id}`)).rejects.toThrow();
  });
});

describe('events of a move', () => {
  it('writes a webhook delivery with the payload on each move when the webhook is on, none when off', async () => {
    const hooked = await createOrganization(t, { webhookSwitch: true, webhookUrl: 'https://hooks.example.com/in' });
    const kase = await createCase(t, hooked.id, { openedAt: OPENED });
    await act(kase.id, { kind: 'CONTACT_ATTEMPT', method: 'CALL', result: 'REACHED' });
    await act(kase.id, { kind: 'STATUS_CHANGE', status: 'SEEN' });
    const rows = await deliveriesOf(kase.id);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.event)).toEqual([FOLLOW_UP_WEBHOOK_EVENT, FOLLOW_UP_WEBHOOK_EVENT]);
    expect(rows.map((r) => [(r.payload as Record<string, unknown>).from_status, (r.payload as Record<string, unknown>).to_status])).toEqual([
      ['OPEN', 'CONTACTED'],
      ['CONTACTED', 'SEEN'],
    ]);
    expect(rows[0]!.payload).toMatchObject({ case: kase.id, organization: hooked.id, changed_by: admin.id });
    expect(JSON.stringify(rows[0]!.payload)).not.toContain('Patient');
    const quiet = await createCase(t, org.id, { openedAt: OPENED });
    await act(quiet.id, { kind: 'STATUS_CHANGE', status: 'CONTACTED' });
    expect(await deliveriesOf(quiet.id)).toEqual([]);
    const audits = await actionAudits(kase.id);
    expect(audits.map((a) => a.details)).toEqual([
      { kind: 'CONTACT_ATTEMPT', from: 'OPEN', to: 'CONTACTED' },
      { kind: 'STATUS_CHANGE', from: 'CONTACTED', to: 'SEEN' },
    ]);
  });

  it('lets only one of two concurrent moves of a case pass', async () => {
    const kase = await createCase(t, org.id, { status: 'SEEN', openedAt: OPENED, statusChanged: OPENED });
    const results = await Promise.all([
      act(kase.id, { kind: 'STATUS_CHANGE', status: 'CLOSED', ...closeFields }),
      act(kase.id, { kind: 'STATUS_CHANGE', status: 'LOST_TO_FOLLOW_UP' }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    // LOST_TO_FOLLOW_UP → CLOSED is allowed, CLOSED → LOST_TO_FOLLOW_UP is not: either order leaves one valid chain.
    const moves = (await entriesOf(kase.id)).filter((e) => e.kind === 'STATUS_CHANGE');
    const final = (await stored(kase.id)).status as TFollowUpStatus;
    if (codes[0] === 201 && codes[1] === 201) expect(final).toBe('CLOSED');
    else expect(codes).toEqual([201, 400]);
    expect(moves.length).toBe(codes.filter((c) => c === 201).length);
  });
});

describe('due and overdue across time zones', () => {
  it('reads due dates in each organization zone: one instant is overdue in Los Angeles, not yet in Auckland; days_overdue', async () => {
    const auckland = await createOrganization(t, { name: 'Auckland clinic', timezone: 'Pacific/Auckland' });
    const angeles = await createOrganization(t, { name: 'LA clinic', timezone: 'America/Los_Angeles' });
    // Opened 2026-11-01T12:00Z: 2026-11-02 in Auckland (due 11-09), 2026-11-01 in LA (due 11-08).
    const opened = new Date('2026-11-01T12:00:00Z');
    const nz = await createCase(t, auckland.id, { openedAt: opened, timeZone: 'Pacific/Auckland' });
    const la = await createCase(t, angeles.id, { openedAt: opened, timeZone: 'America/Los_Angeles' });
    expect((await stored(nz.id)).nextDue).toBe('2026-11-09');
    expect((await stored(la.id)).nextDue).toBe('2026-11-08');
    // 2026-11-09T12:00Z: Auckland 11-10 01:00 (overdue since its midnight); LA 11-09 04:00 (overdue since 11-09).
    t.clock.set(new Date('2026-11-09T12:00:00Z'));
    const page = (await t.app.inject({ method: 'GET', url: `/api/v1/follow-up/?ordering=id&overdue=true`, headers: auth(token) })).json<TPaginated<TFollowUpRow>>();
    const byId = new Map(page.results.map((r) => [r.id, r]));
    expect(byId.get(nz.id)).toMatchObject({ overdue: true, days_overdue: 1 });
    expect(byId.get(la.id)).toMatchObject({ overdue: true, days_overdue: 1 });
    // 2026-11-09T10:00Z: Auckland 11-09 23:00 — not yet overdue; LA 11-09 02:00 — overdue.
    t.clock.set(new Date('2026-11-09T10:00:00Z'));
    const early = (await t.app.inject({ method: 'GET', url: `/api/v1/follow-up/?overdue=true`, headers: auth(token) })).json<TPaginated<TFollowUpRow>>();
    const earlyIds = early.results.map((r) => r.id);
    expect(earlyIds).toContain(la.id);
    expect(earlyIds).not.toContain(nz.id);
    t.clock.set(new Date('2026-11-12T10:00:00Z'));
    const later = (await t.app.inject({ method: 'GET', url: `/api/v1/follow-up/${la.id}/`, headers: auth(token) })).json<TFollowUpCase>();
    expect(later).toMatchObject({ overdue: true, days_overdue: 4 });
    t.clock.set(NOW);
  });
});
