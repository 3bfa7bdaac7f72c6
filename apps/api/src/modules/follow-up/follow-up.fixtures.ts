// Test fixtures of the follow-up worklist: patients and cases written straight into the tables (no upload or review
// opens them here), with their sources and timeline, and a signed-in user per role.
import type { TFollowUpModality, TFollowUpSourceKind, TFollowUpStatus } from '@sc/shared/follow-up';
import { defaultFollowUpSettings, isActiveFollowUpStatus } from '@sc/shared/follow-up';
import type { TUserType } from '@sc/shared/roles';
import { followUpCaseSources, followUpCases, followUpEntries, patients, scans } from '../../db/schema/index.ts';
import type { TestContext } from '../../test/app.ts';
import { createUser, signIn, uniqueMobile } from '../../test/factories.ts';
import { dueFor } from './follow-up-core.ts';

let seq = 0;

export async function createPatient(
  t: TestContext,
  organizationId: number | null,
  opts: { firstName?: string; lastName?: string; mobile?: string } = {},
) {
  const n = ++seq;
  const [row] = await t.database.db
    .insert(patients)
    .values({
      firstName: opts.firstName ?? `Patient${n}`,
      lastName: opts.lastName ?? 'Follow',
      mobile: opts.mobile ?? `+91-${uniqueMobile()}`,
      mobileCountryCode: 'IN',
      organizationId,
    })
    .returning();
  if (!row) throw new Error('patient not created');
  return row;
}

/** A breast scan of the patient (a source row points at it). */
export async function createScan(t: TestContext, patientId: number, organizationId: number | null, dateTime: Date) {
  const [row] = await t.database.db
    .insert(scans)
    .values({ patientId, organizationId, dateTime, scanType: 'SCAN' } as typeof scans.$inferInsert)
    .returning();
  if (!row) throw new Error('scan not created');
  return row;
}

export type CaseOptions = {
  status?: TFollowUpStatus;
  openedAt?: Date;
  statusChanged?: Date;
  modalities?: TFollowUpModality[];
  assignedUserId?: number | null;
  timeZone?: string;
  source?: { kind: TFollowUpSourceKind; id: number };
  patient?: { firstName?: string; lastName?: string; mobile?: string };
  patientId?: number;
};

/**
 * A case of a new patient of `organizationId` (or of `patientId`), with its OPENED entry; the due date follows the
 * default intervals from the state's entry (opened_at for OPEN) in `timeZone`.
 */
export async function createCase(t: TestContext, organizationId: number | null, opts: CaseOptions = {}) {
  const db = t.database.db;
  const patientId = opts.patientId ?? (await createPatient(t, organizationId, opts.patient)).id;
  const openedAt = opts.openedAt ?? t.clock.now();
  const status = opts.status ?? 'OPEN';
  const statusChanged = opts.statusChanged ?? openedAt;
  const due = dueFor(status, status === 'OPEN' ? openedAt : statusChanged, defaultFollowUpSettings(organizationId ?? 0), opts.timeZone);
  const [kase] = await db
    .insert(followUpCases)
    .values({
      patientId,
      organizationId,
      status,
      statusChanged,
      modalities: opts.modalities ?? ['BREAST'],
      openedAt,
      assignedUserId: opts.assignedUserId ?? null,
      nextDue: due.nextDue,
      dueAt: due.dueAt,
      lastActionKind: 'OPENED',
      lastActionAt: openedAt,
      outcome: status === 'CLOSED' ? 'BENIGN' : null,
      diagnosisDate: status === 'CLOSED' ? statusChanged.toISOString().slice(0, 10) : null,
      closedAt: isActiveFollowUpStatus(status) ? null : statusChanged,
    })
    .returning();
  if (!kase) throw new Error('case not created');
  await db.insert(followUpEntries).values({ caseId: kase.id, kind: 'OPENED', toStatus: 'OPEN', created: openedAt });
  if (opts.source) {
    await db.insert(followUpCaseSources).values({
      caseId: kase.id,
      kind: opts.source.kind,
      sourceId: opts.source.id,
      screenedAt: openedAt,
    });
  }
  return kase;
}

/** A signed-in user of `userType` (of `organizationId`; a MANAGER linked to `linked`). */
export async function userToken(
  t: TestContext,
  userType: TUserType,
  opts: { organizationId?: number | null; linkedOrganizationIds?: number[]; firstName?: string } = {},
) {
  const user = await createUser(t, { userType, password: null, ...opts });
  return { user, token: await signIn(t, user) };
}
