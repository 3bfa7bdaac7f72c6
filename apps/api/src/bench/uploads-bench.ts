// Benchmark of device uploads (issue 22): POST scan/ through the whole app (authentication, the uploader's rules, the
// idempotent transaction, storeScan, the audit row, the stored answer) by CLIENTS devices at once, each upload under a
// key of its own; and a device that sends one upload COPIES times at once under one key (a retry on a slow network),
// whose copies should answer the first one's stored result without waiting behind it.
// The uploads go to an organization of the bench's own ('Bench uploads': its devices, technicians and patients are
// kept and reused between runs), dated 2021 so that the lines over the last 30 days do not count them.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { SCAN_UPLOAD_EXAMPLE } from '@sc/shared/scans';
import { IDEMPOTENCY_KEY_HEADER } from '@sc/shared/uploads';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { devices, organizationDevices, organizations, patients, users } from '../db/schema/index.ts';
import { createSession } from '../modules/auth/sessions.service.ts';
import { benchSelected } from './http-bench.ts';

const CLIENTS = 10;
/** Uploads per line (`BENCH_UPLOADS=2000` for steadier percentiles). */
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 300);
const COPIES = 5;
const ORGANIZATION = 'Bench uploads';

export type UploadBenchResult = { uploads: number; 'uploads/s': number; p50: number; p95: number; max: number; note: string };

type Device = { serial: string; token: string; patient: number };

/** The bench organization's CLIENTS devices, each linked, with a certified technician signed in and a patient. */
async function benchDevices(database: Database, config: Config): Promise<Device[]> {
  const { db } = database;
  let [org] = await db.select().from(organizations).where(eq(organizations.name, ORGANIZATION)).limit(1);
  if (!org) {
    [org] = await db.insert(organizations).values({ name: ORGANIZATION, country: 'India', countryCode: 'IN' }).returning();
    if (!org) throw new Error('bench organization not created');
    await db.update(organizations).set({ treePath: `/${org.id}/` }).where(eq(organizations.id, org.id));
  }
  const orgId = org.id;
  const out: Device[] = [];
  for (let i = 1; i <= CLIENTS; i++) {
    const serial = `BENCH-UPLOAD-${i}`;
    let [device] = await db.select().from(devices).where(eq(devices.serialNumber, serial)).limit(1);
    if (!device) {
      [device] = await db.insert(devices).values({ serialNumber: serial }).returning();
      if (!device) throw new Error('bench device not created');
      await db.insert(organizationDevices).values({ deviceId: device.id, organizationId: orgId });
    }
    const username = `bench-uploader-${i}`;
    let [user] = await db.select().from(users).where(eq(users.username, username)).limit(1);
    if (!user) {
      [user] = await db
        .insert(users)
        .values({
          firstName: 'Bench',
          lastName: `Uploader ${i}`,
          username,
          userType: 'TECHNICIAN',
          organizationId: orgId,
          ibeTrainingStatus: 'CERTIFIED',
          certificateIssueDate: '2020-01-01',
          certificateExpiryDate: '2099-01-01',
        })
        .returning();
      if (!user) throw new Error('bench technician not created');
    }
    let [patient] = await db
      .select()
      .from(patients)
      .where(and(eq(patients.organizationId, orgId), eq(patients.technicianId, user.id)))
      .limit(1);
    patient ??= (
      await db
        .insert(patients)
        .values({ firstName: 'Bench', lastName: `Patient ${i}`, age: 40, organizationId: orgId, technicianId: user.id })
        .returning()
    )[0];
    if (!patient) throw new Error('bench patient not created');
    const { token } = await createSession({ config, database, now: () => new Date() }, { userId: user.id });
    out.push({ serial, token, patient: patient.id });
  }
  return out;
}

const percentile = (sorted: number[], q: number) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;

export async function benchUploads(database: Database, config: Config): Promise<Record<string, UploadBenchResult>> {
  const name = `uploads: POST scan/, ${CLIENTS} devices at once, a key each`;
  const copiesName = `uploads: ${COPIES} copies of one upload at once, one key`;
  if (!benchSelected(name) && !benchSelected(copiesName)) return {};
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  const run = randomUUID().slice(0, 8);
  let n = 0;
  try {
    const fleet = await benchDevices(database, config);
    const upload = async (device: Device, key = randomUUID(), localId = `bench-${run}-${++n}`) => {
      const t0 = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/scan/',
        headers: { authorization: `Token ${device.token}`, [IDEMPOTENCY_KEY_HEADER]: key },
        payload: {
          ...SCAN_UPLOAD_EXAMPLE,
          patient: device.patient,
          device_serial_number: device.serial,
          local_db_id: localId,
          date_time: '2021-06-01T10:00:00Z',
          scan_files_path: { reports: [], consent_form: [], assessment_files: [] },
        },
      });
      if (res.statusCode !== 201) throw new Error(`POST scan/: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms: performance.now() - t0, replayed: res.headers['idempotent-replayed'] === 'true' };
    };
    // A server in service has compiled its hot paths.
    for (const device of fleet) for (let i = 0; i < 5; i++) await upload(device);

    const results: Record<string, UploadBenchResult> = {};
    if (benchSelected(name)) {
      const samples: number[] = [];
      let sent = 0;
      const started = performance.now();
      await Promise.all(
        fleet.map(async (device) => {
          while (sent < UPLOADS) {
            sent++;
            samples.push((await upload(device)).ms);
          }
        }),
      );
      const elapsed = performance.now() - started;
      samples.sort((a, b) => a - b);
      results[name] = {
        uploads: samples.length,
        'uploads/s': Math.round((samples.length / elapsed) * 10_000) / 10,
        p50: percentile(samples, 0.5),
        p95: percentile(samples, 0.95),
        max: percentile(samples, 1),
        note: 'each scan stored',
      };
    }
    if (benchSelected(copiesName)) {
      // One device at a time: what a copy waits for is the first copy, not the other devices.
      const first: number[] = [];
      const copies: number[] = [];
      const rounds = Math.max(1, Math.round(UPLOADS / COPIES / 5));
      const started = performance.now();
      for (let r = 0; r < rounds; r++) {
        const device = fleet[r % fleet.length]!;
        const key = randomUUID();
        const localId = `bench-${run}-${++n}`;
        const answers = await Promise.all(Array.from({ length: COPIES }, () => upload(device, key, localId)));
        for (const a of answers) (a.replayed ? copies : first).push(a.ms);
      }
      const elapsed = performance.now() - started;
      copies.sort((a, b) => a - b);
      first.sort((a, b) => a - b);
      results[copiesName] = {
        uploads: copies.length,
        'uploads/s': Math.round((rounds / elapsed) * 10_000) / 10,
        p50: percentile(copies, 0.5),
        p95: percentile(copies, 0.95),
        max: percentile(copies, 1),
        note: `uploads/s: stored uploads; times: the replayed copies; the stored one: p50 ${percentile(first, 0.5)}, p95 ${percentile(first, 0.95)}`,
      };
    }
    return results;
  } finally {
    await app.close();
  }
}
