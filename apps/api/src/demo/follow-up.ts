// Demo follow-up of screen-positive patients (issue 26): a case per patient episode for every positive the demo
// loaded (the opening rule of @sc/shared/follow-up, read in one query), moved through its states with a believable
// timeline: contact attempts, referrals, visits, outcomes, notes, corrections and reminder SMS. Older cases are
// mostly closed, recent ones active, and a share of every active state is overdue. Rows are built in memory and
// loaded with COPY in batches, so a million scans cost one pass; nothing is written per case.
import { defaultFollowUpSettings, FOLLOW_UP_OUTCOMES, FOLLOW_UP_SITES, SOURCE_MODALITY } from '@sc/shared/follow-up';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { COUNTRIES } from './catalog.ts';
import { copyRows, resetSequences } from './copy.ts';
import { CaseLife, due, NO_ORGANIZATION, type DemoOrg } from './follow-up-life.ts';
import { FOLLOWERS_SQL, ORGANIZATIONS_SQL, POSITIVES_SQL, type DemoPositive } from './follow-up-sql.ts';
import { SMS_TEXTS } from './follow-up-texts.ts';
import type { Rng } from './rng.ts';

/** Cases per COPY batch (with their sources and entries). */
const BATCH = 20_000;
const DAY = 86_400_000;

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

/**
 * A patient's reminder consent, given at registration (seed.ts): about 60 % agree, most of them in their country's
 * language, the others in English. A hash of the id, so the same on every load and no draw of the demo moves.
 */
export function demoReminderConsent(patientId: number, countryLanguage: string | null): { reminderConsent: boolean; consentLanguage: string | null } {
  if (countryLanguage === null || (patientId * 2654435761) % 1000 >= 600) return { reminderConsent: false, consentLanguage: null };
  return { reminderConsent: true, consentLanguage: (patientId * 40503) % 7 < 4 ? countryLanguage : 'en' };
}

/** Custom intervals and reminders for some organizations; the others keep the defaults (no row). */
function demoSettings(orgs: DemoOrg[], rng: Rng, nowMs: number): Insert<typeof schema.followUpSettings>[] {
  const rows: Insert<typeof schema.followUpSettings>[] = [];
  const profiles = [
    { contact_days: 5, referral_days: 10, seen_days: 21, outcome_days: 21 },
    { contact_days: 3, referral_days: 7, seen_days: 30, outcome_days: 45 },
    { contact_days: 10, referral_days: 14, seen_days: 45, outcome_days: 30 },
  ];
  for (const org of orgs) {
    if (org.followers.length === 0 || !rng.chance(0.4)) continue;
    const sms = rng.chance(0.6);
    const texts: Record<string, string> = { en: SMS_TEXTS.en! };
    if (org.language && SMS_TEXTS[org.language]) texts[org.language] = SMS_TEXTS[org.language]!;
    org.settings = { ...org.settings, ...rng.pick(profiles), sms_enabled: sms, sms_texts: texts, is_custom: true };
    const saved = new Date(nowMs - rng.int(60, 400) * DAY);
    rows.push({
      organizationId: org.id,
      contactDays: org.settings.contact_days,
      referralDays: org.settings.referral_days,
      seenDays: org.settings.seen_days,
      outcomeDays: org.settings.outcome_days,
      digestEnabled: rng.chance(0.85),
      smsEnabled: sms,
      smsTexts: texts,
      created: saved,
      modified: saved,
      createdBy: org.followers[0] ?? null,
      modifiedBy: org.followers[0] ?? null,
    });
  }
  return rows;
}

/** The row triggers that keep the figures' pre-aggregates (migration 0024). */
const FOLLOW_UP_STATS_TRIGGERS = ['follow_up_stats_insert', 'follow_up_stats_update', 'follow_up_stats_delete'];

/** Opens, plays and loads the demo's follow-up cases; returns how many cases it wrote. */
export async function seedFollowUp(database: Database, rng: Rng, nowMs: number, log: (message: string) => void): Promise<number> {
  const orgRows = await database.query<{ id: number; timezone: string; place: string; country_code: string | null }>(ORGANIZATIONS_SQL);
  const orgs = new Map<number, DemoOrg>();
  const names = new Map<number, string>();
  for (const o of orgRows) {
    const language = Object.values(COUNTRIES).find((c) => c.code === o.country_code)?.languageIso ?? null;
    orgs.set(o.id, { id: o.id, timezone: o.timezone, place: o.place, language, settings: defaultFollowUpSettings(o.id), followers: [], names });
  }
  for (const f of await database.query<{ organization_id: number; user_id: number; name: string }>(FOLLOWERS_SQL)) {
    orgs.get(f.organization_id)?.followers.push(f.user_id);
    names.set(f.user_id, f.name);
  }
  await copyRows(database, schema.followUpSettings, demoSettings([...orgs.values()], rng, nowMs));

  // Fresh tables have no statistics yet (the seed's VACUUM ANALYZE comes last): without them the planner guesses.
  await database.exec('ANALYZE patients, scans, cervical_exams, cervical_documents, cervical_document_reviews, orca_exams, orca_findings');
  const positives = await database.query<DemoPositive>(POSITIVES_SQL);
  log(`follow-up: ${positives.length} positives read`);
  let cases: Insert<typeof schema.followUpCases>[] = [];
  let sources: Insert<typeof schema.followUpCaseSources>[] = [];
  let entries: Insert<typeof schema.followUpEntries>[] = [];
  let caseId = 0;
  let sourceId = 0;
  let entryId = 0;
  // The figures' pre-aggregates are computed once after the load (follow_up_stats_rebuild) instead of a trigger per
  // case: the row triggers would upsert eight rows for every case copied.
  await database.exec(FOLLOW_UP_STATS_TRIGGERS.map((name) => `ALTER TABLE follow_up_cases DISABLE TRIGGER ${name};`).join('\n'));
  const flush = async () => {
    await copyRows(database, schema.followUpCases, cases);
    await copyRows(database, schema.followUpCaseSources, sources);
    await copyRows(database, schema.followUpEntries, entries);
    cases = [];
    sources = [];
    entries = [];
  };

  const finish = (life: CaseLife, id: number, p: DemoPositive) => {
    const org = p.organization_id === null ? null : (orgs.get(p.organization_id) ?? null);
    const reminded = life.remind({ consents: p.reminded, language: p.consent_language ?? 'en' });
    // Ties keep the order they were written in (a contact and the move it implies share an instant).
    const timeline = life.entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i).map((x) => x.e);
    for (const e of timeline) {
      e.id = ++entryId;
      entries.push({
        id: e.id,
        caseId: id,
        kind: e.kind,
        actorId: e.actorId,
        fromStatus: e.from ?? null,
        toStatus: e.to ?? null,
        data: e.data,
        note: e.note ?? null,
        correctsId: e.corrects?.id ?? null,
        created: new Date(e.at),
      });
    }
    const last = timeline[timeline.length - 1]!;
    const { nextDue, dueAt } = due(life.status, life.statusChanged, org ?? NO_ORGANIZATION);
    cases.push({
      id,
      patientId: p.patient_id,
      organizationId: p.organization_id,
      status: life.status,
      statusChanged: new Date(life.statusChanged),
      modalities: [...new Set(life.modalities)],
      openedAt: new Date(life.openedAt),
      assignedUserId: life.assigned,
      nextDue,
      dueAt: dueAt === null ? null : new Date(dueAt),
      lastActionKind: last.kind,
      lastActionAt: new Date(last.at),
      outcome: life.outcome,
      outcomeSite: life.site,
      diagnosisDate: life.diagnosisDate,
      diagnosisFacility: life.diagnosisFacility,
      closedAt: life.closedAt === null ? null : new Date(life.closedAt),
      smsRemindedStatus: reminded,
      created: new Date(life.openedAt),
      modified: new Date(last.at),
      createdBy: null,
      modifiedBy: last.actorId,
    });
  };

  const unseen = new Set<string>([...FOLLOW_UP_OUTCOMES.map((o) => `outcome:${o}`), ...FOLLOW_UP_SITES.map((s) => `site:${s}`)]);
  let open: { life: CaseLife; id: number; first: DemoPositive } | null = null;
  for (const p of positives) {
    const modality = SOURCE_MODALITY[p.kind];
    const joins = open !== null && open.first.patient_id === p.patient_id && (open.life.closesAt === null || p.at < open.life.closesAt);
    if (joins && open) {
      open.life.entries.push({ at: p.at, kind: 'JOINED', actorId: null, data: { source_kind: p.kind, source_id: p.source_id, modality } });
      open.life.modalities.push(modality);
    } else {
      if (open) finish(open.life, open.id, open.first);
      if (cases.length >= BATCH) await flush();
      const org = p.organization_id === null ? null : (orgs.get(p.organization_id) ?? null);
      const life = new CaseLife(rng, org, nowMs, p.at, unseen);
      life.modalities.push(modality);
      life.play({ kind: p.kind, sourceId: p.source_id, modality });
      open = { life, id: ++caseId, first: p };
    }
    sources.push({ id: ++sourceId, caseId: open.id, kind: p.kind, sourceId: p.source_id, screenedAt: new Date(p.at), created: new Date(p.at) });
  }
  if (open) finish(open.life, open.id, open.first);
  await flush();
  await resetSequences(database, [schema.followUpCases, schema.followUpCaseSources, schema.followUpEntries]);
  await database.exec(FOLLOW_UP_STATS_TRIGGERS.map((name) => `ALTER TABLE follow_up_cases ENABLE TRIGGER ${name};`).join('\n'));
  await database.exec('SELECT follow_up_stats_rebuild();');
  log(`follow-up: ${caseId} cases of ${positives.length} positives, ${entryId} timeline entries`);
  return caseId;
}
