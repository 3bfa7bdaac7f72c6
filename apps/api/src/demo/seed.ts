// Deterministic demo programme (architecture §8): the same seed gives the same rows; only dates follow "now", so lists
// filtered to the last 30 days are never empty. Ids are assigned here and rows loaded with COPY into an empty
// database; `scale` is the number of breast scans (a million for benchmarks).
import { hash } from '@node-rs/argon2';
import { isValidMobile } from '@sc/shared/validation';
import { getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ASSESSMENT_RESULTS, SCAN_TYPES, TRAINING_STATUSES } from '@sc/shared/constants';
import type { Database } from '../db/client.ts';
import * as schema from '../db/schema/index.ts';
import { DEMO_ACCOUNTS, DEMO_DIAL_CODE, DEMO_DEFAULT_PASSWORD, type DemoAccount } from './accounts.ts';
import {
  BREAST_FINDINGS,
  CERVICAL_FINDINGS,
  CERVICAL_QUALITIES,
  CERVICAL_SYMPTOM_TAGS,
  CONSENT,
  EXTRA_TUTORIALS,
  COUNTRIES,
  LANGUAGES,
  ORCA_PARTS,
  ORCA_SYMPTOMS,
  ORGANIZATION_PLAN,
  OTHER_SUBSTANCES,
  SCAN_NOTES,
  SMOKELESS_TYPES,
  SMOKING_TYPES,
  TUTORIALS,
  type City,
  type Country,
  type OrgKey,
  type OrgPlan,
  type TutorialPlan,
} from './catalog.ts';
import { STEP_BY_STEP_TUTORIAL } from './tutorial-extras.ts';
import { DEMO_BOOKING_DAYS, demoSlotTimes } from './booking-slots.ts';
import { copyRows, resetSequences } from './copy.ts';
import { rebuildScanStats, setScanStatsTriggers } from '../modules/dashboard/scan-stats.maintenance.ts';
import { demoMammogramPath, demoScanFilePath } from '../modules/scan-files/scan-files.paths.ts';
import { demoFirmwareFile } from '../modules/firmware/firmware-demo.ts';
import { Rng } from './rng.ts';
import { demoReminderConsent, seedFollowUp } from './follow-up.ts';
import { fitToBudget, planTrainingHistories, type PlannedScan, type Trainee } from './training-history.ts';

export type SeedOptions = {
  password?: string;
  /** Number of breast scans; default 4000. */
  scale?: number;
  seed?: number;
  /** Dates are laid out backwards from this moment. */
  now?: Date;
  log?: (message: string) => void;
};

export type SeedSummary = { counts: Record<string, number>; ms: number };

export const DEFAULT_SCALE = 4000;
const DEFAULT_SEED = 20260101;
const DAY = 86_400_000;
const MINUTE = 60_000;
// Above this many scans, secondary indexes of the big tables are dropped during the load and rebuilt after it.
const REBUILD_INDEXES_ABOVE = 100_000;
const SCAN_BATCH = 20_000;

type Insert<T extends PgTable> = T['$inferInsert'];

type Org = {
  id: number;
  name: string;
  country: Country;
  city: City;
  parentId: number | null;
  treePath: string;
  isDistributor: boolean;
  key?: OrgKey;
  created: Date;
  lat: number;
  lng: number;
  bookingEnabled: boolean;
  price: number;
  slotCapacity: number;
  webhookUrl: string | null;
};

type DeviceInfo = {
  index: number;
  serial: string;
  sensor: string;
  tablet: string;
  hardware: string;
  software: string;
  model: string;
  manufacturer: string;
  os: string;
  localCounter: number;
};

/** A report that took a licence: when, by which technician, and the ORCA exam that keeps its report counter. */
type LicenceUse = { at: Date; by: number; exam?: Insert<typeof schema.orcaExams> };

/** Clinics that scan: their technicians, devices and (later) patients. */
type Clinic = {
  org: Org;
  technicians: number[];
  orgAdmin: number;
  devices: DeviceInfo[];
  weight: number;
  patients: number[];
};

export async function isDatabaseEmpty(database: Database): Promise<boolean> {
  const [row] = await database.query<{ n: number }>(
    'SELECT ((SELECT count(*) FROM organizations) + (SELECT count(*) FROM users))::int AS n',
  );
  return (row?.n ?? 0) === 0;
}

export async function seedDemo(database: Database, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const scale = Math.max(100, Math.round(options.scale ?? DEFAULT_SCALE));
  const seeder = new Seeder(database, new Rng(options.seed ?? DEFAULT_SEED), options.now ?? new Date(), log);
  await seeder.run(options.password ?? DEMO_DEFAULT_PASSWORD, scale);
  const counts = await countRows(database);
  return { counts, ms: Math.round(performance.now() - started) };
}

export async function countRows(database: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of SEEDED_TABLES) {
    const name = getTableName(table);
    const [row] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`);
    counts[name] = row?.n ?? 0;
  }
  return counts;
}

const SEEDED_TABLES: readonly PgTable[] = [
  schema.appVersions,
  schema.languages,
  schema.organizations,
  schema.references,
  schema.users,
  schema.managerOrganizations,
  schema.devices,
  schema.organizationDevices,
  schema.firmware,
  schema.tutorialModules,
  schema.tutorialQuizzes,
  schema.tutorialQuizOptions,
  schema.tutorialContents,
  schema.tutorialModuleCompletions,
  schema.patients,
  schema.scans,
  schema.licences,
  schema.licenceLogs,
  schema.cervicalQualities,
  schema.cervicalClinicalFindings,
  schema.cervicalExams,
  schema.cervicalDocuments,
  schema.cervicalDocumentReviews,
  schema.orcaExams,
  schema.orcaCaseHistories,
  schema.orcaFindings,
  schema.slots,
  schema.bookings,
  schema.reportLogs,
  schema.webhookDeliveries,
];

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`index ${index} out of range`);
  return item;
}

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
/** A fixed language id where the demo sets one, else the drawn one. */
const pickLanguageId = (drawn: number, fixed: number | undefined): number => fixed ?? drawn;
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

const STREETS = [
  'Main Road',
  'Station Road',
  'Hospital Road',
  'Market Street',
  'Church Street',
  'Park Avenue',
  'Lake View Road',
];
const AREAS = ['Old Town', 'Civic Centre', 'Riverside', 'Central District', 'Sector 4', 'Hill View'];
const TABLETS = [
  { model: 'Galaxy Tab A8', manufacturer: 'samsung' },
  { model: 'Galaxy Tab S6 Lite', manufacturer: 'samsung' },
  { model: 'Tab M10 HD', manufacturer: 'LENOVO' },
  { model: 'MatePad T10', manufacturer: 'HUAWEI' },
];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
];

class Seeder {
  private readonly nowMs: number;
  private passwordHash = '';
  private readonly orgs: Org[] = [];
  private readonly orgByKey = new Map<OrgKey, Org>();
  private readonly clinics: Clinic[] = [];
  private readonly clinicByOrg = new Map<number, Clinic>();
  private readonly devices: DeviceInfo[] = [];
  private readonly usedMobiles = new Set<string>();
  private readonly usedUsernames = new Set<string>();
  private readonly demoIds = new Map<string, number>();
  private readonly referencesByOrg = new Map<number, number[]>();
  private readonly users: Insert<typeof schema.users>[] = [];
  private readonly reviewers: { id: number; treeOf: string | null }[] = [];
  /** Each MANAGER's linked organizations: every manager's scope gets cervical and ORCA exams. */
  private readonly managerLinks = new Map<number, Org[]>();
  private readonly appVersionIds = { IBE: [] as number[], ORCA: [] as number[], CERVAICAL: [] as number[] };
  private readonly webhookScans = new Map<number, number[]>();
  private patientCount = 0;
  /** Each patient's first visit (ms, by id - 1): nothing of hers happens before it (issue 23.8). */
  private firstVisit = new Float64Array(0);
  /** Patients a training scan needed before their first visit: their first visit moves back to it. */
  private readonly earlierVisits = new Map<number, number>();

  constructor(
    private readonly database: Database,
    private readonly rng: Rng,
    now: Date,
    private readonly log: (message: string) => void,
  ) {
    // Whole minutes keep the generated timestamps tidy.
    this.nowMs = Math.floor(now.getTime() / MINUTE) * MINUTE;
  }

  async run(password: string, scale: number): Promise<void> {
    // One hash for every demo user: argon2id costs ~13 ms each and they all share the demo password.
    this.passwordHash = await hash(password);
    await this.appVersionsAndLanguages();
    await this.organizations();
    await this.usersAndLinks();
    await this.devicesAndLinks();
    await this.firmware();
    await this.tutorials();
    const rebuild = scale > REBUILD_INDEXES_ABOVE;
    const dropped = rebuild ? await this.dropIndexes(['patients', 'patient_search', 'scans']) : [];
    // Statistics are aggregated once after the bulk load instead of per COPY batch (scan-stats.maintenance.ts).
    await setScanStatsTriggers(this.database, false);
    await this.patientsAndScans(scale);
    for (const ddl of dropped) await this.database.exec(ddl);
    if (rebuild) this.log(`rebuilt ${dropped.length} indexes`);
    await setScanStatsTriggers(this.database, true);
    await rebuildScanStats(this.database);
    await this.cervicalAndOrcaAndLicences(scale);
    await this.bookings();
    await this.reportLogsAndWebhooks();
    this.log('exams, licences, bookings, report log');
    await seedFollowUp(this.database, this.rng, this.nowMs, this.log);
    await this.lastSyncDates();
    await resetSequences(this.database, SEEDED_TABLES);
    // PGlite has no autovacuum: statistics only exist after ANALYZE, and counts use index-only scans only once
    // VACUUM has set the visibility map.
    await this.database.exec('VACUUM ANALYZE');
  }

  private ago(days: number): Date {
    return new Date(this.nowMs - days * DAY);
  }

  /** A whole minute from `fromMs` to `toMs`; never after `toMs`, even when `fromMs` is (then `toMs`'s minute). */
  private between(fromMs: number, toMs: number): Date {
    const from = Math.min(fromMs, toMs);
    return new Date(Math.floor((from + this.rng.next() * (toMs - from)) / MINUTE) * MINUTE);
  }

  private uniqueMobile(country: Country): string {
    for (;;) {
      const national = country.mobile(this.rng);
      // The country's prefixes are a close guess; the shared rule (mobile numbering plans) has the last word.
      if (!isValidMobile(national, country.code)) continue;
      const stored = `${country.dialCode}-${national}`;
      if (!this.usedMobiles.has(stored)) {
        this.usedMobiles.add(stored);
        return stored;
      }
    }
  }

  private uniqueUsername(base: string): string {
    let name = base || 'user';
    for (let n = 2; this.usedUsernames.has(name); n++) name = `${base}${n}`;
    this.usedUsernames.add(name);
    return name;
  }

  // ---- app versions, languages -------------------------------------------------------------------------

  private async appVersionsAndLanguages(): Promise<void> {
    const rows: Insert<typeof schema.appVersions>[] = [];
    const notes = [
      'Faster report upload on slow networks.',
      'New consent form screen and bug fixes.',
      'Improved tile guidance during the scan.',
      'Offline mode keeps reports until the tablet is online.',
      'Updated translations and accessibility fixes.',
      'Licence check at start of each exam.',
    ];
    const plan = [
      { type: 'IBE' as const, count: 12, major: 3 },
      { type: 'ORCA' as const, count: 12, major: 1 },
      { type: 'CERVAICAL' as const, count: 12, major: 2 },
    ];
    let id = 0;
    for (const p of plan) {
      for (let i = 0; i < p.count; i++) {
        id++;
        const minor = Math.floor(i / 3);
        const patch = i % 3;
        const created = this.ago(720 - i * 55 - (p.major % 3) * 7);
        rows.push({
          id,
          name: `${p.major}.${minor}.${patch}`,
          code: String(p.major * 100 + minor * 10 + patch),
          tutorialVersion: p.type === 'IBE' ? round(1 + i * 0.5, 1) : null,
          notes: { note: this.rng.pick(notes) },
          type: p.type,
          created,
          modified: created,
          createdBy: 1,
        });
        this.appVersionIds[p.type].push(id);
      }
    }
    await copyRows(this.database, schema.appVersions, rows);

    const latestIbe = at(this.appVersionIds.IBE, this.appVersionIds.IBE.length - 1);
    const languages: Insert<typeof schema.languages>[] = LANGUAGES.map((l, i) => ({
      id: i + 1,
      name: l.name,
      isoCode: l.iso,
      isTutorialAvailable: l.tutorial,
      appVersionId: l.tutorial ? latestIbe : null,
      ibeConsentForm: CONSENT[l.iso]?.ibe ?? [],
      created: this.ago(900 - i),
      modified: this.ago(900 - i),
    }));
    await copyRows(this.database, schema.languages, languages);
  }

  // ---- organizations and references ---------------------------------------------------------------------

  private async organizations(): Promise<void> {
    const rows: Insert<typeof schema.organizations>[] = [];
    const bookingOrgs = new Set([
      "Sunrise Women's Clinic",
      'Clínica Santa Fe',
      "Nairobi Women's Health Centre",
      "Bayanihan Women's Clinic",
      'Ikeja Breast Care Centre',
    ]);
    // Takes bookings too, so the demo MANAGER and DISTRIBUTOR_ADMIN see some in their scope. Its settings are fixed
    // rather than drawn: a draw here would shift every later random value of the demo.
    const fixedBookingOrg = 'Arogya Clinic Pune';
    const webhookOrgs = new Set(['Lotus Breast Care Centre', 'Red Salud Mujer Guadalajara', 'Kalinga Cebu']);
    const languageIds = new Map<string, number>(LANGUAGES.map((l, i) => [l.iso, i + 1]));

    const visit = (plan: OrgPlan, parent: Org | null) => {
      const id = this.orgs.length + 1;
      const country: Country = COUNTRIES[plan.country];
      const city = country.cities.find((c) => c.name === plan.city) ?? at(country.cities, 0);
      // Parents are older than their children.
      const created = parent
        ? this.between(parent.created.getTime() + 7 * DAY, this.nowMs - 120 * DAY)
        : this.ago(this.rng.int(600, 1100));
      const org: Org = {
        id,
        name: plan.name,
        country,
        city,
        parentId: parent?.id ?? null,
        treePath: `${parent?.treePath ?? '/'}${id}/`,
        isDistributor: plan.distributor === true,
        key: plan.key,
        created,
        lat: round(city.lat + (this.rng.next() - 0.5) * 0.04, 6),
        lng: round(city.lng + (this.rng.next() - 0.5) * 0.04, 6),
        bookingEnabled: bookingOrgs.has(plan.name) || plan.name === fixedBookingOrg,
        price: this.rng.pick([50000, 75000, 100000, 150000]),
        slotCapacity: this.rng.int(2, 4),
        webhookUrl: webhookOrgs.has(plan.name) ? `https://hooks.${slug(plan.name)}.test/screening` : null,
      };
      this.orgs.push(org);
      if (plan.key) this.orgByKey.set(plan.key, org);
      const street = `${this.rng.int(1, 250)} ${this.rng.pick(STREETS)}`;
      const area = this.rng.pick(AREAS);
      const mobile = this.uniqueMobile(country);
      const localIso = country.languageIso;
      const localize: Record<string, schema.LocalizedConsent> = {};
      for (const iso of [localIso, 'fr']) {
        const consent = CONSENT[iso];
        if (!consent || (iso === 'fr' && !this.rng.chance(0.2))) continue;
        localize[iso] = {
          // The language's name, as the write API stores it.
          name: LANGUAGES.find((l) => l.iso === iso)?.name ?? iso,
          ibe_consent_form: consent.ibe,
          cervaical_consent_form: consent.cervaical,
          orca_consent_form: consent.orca,
        };
      }
      rows.push({
        id,
        name: plan.name,
        address1: street,
        address2: area,
        address3: city.name,
        country: country.name,
        countryCode: country.code,
        state: city.state,
        zipcode: city.zip,
        latitude: org.lat,
        longitude: org.lng,
        timezone: country.timezone,
        // Most use English (id 1); some clinics use the local language for tutorials. The fixed booking clinic
        // speaks Hindi, so its public booking page offers it (issue 23 item 17); the draw stays, so later random
        // values of the demo do not move.
        languageId: pickLanguageId(
          this.rng.chance(0.3) ? (languageIds.get(localIso) ?? 1) : 1,
          plan.name === fixedBookingOrg ? languageIds.get(localIso) : undefined,
        ),
        parentId: org.parentId,
        treePath: org.treePath,
        mobile,
        hasWebAccess: org.isDistributor || this.rng.chance(0.7),
        canCreateOrganization: org.isDistributor,
        webhookUrl: org.webhookUrl,
        webhookAuthToken: org.webhookUrl ? `whk_${this.rng.digits(24)}` : null,
        webhookSwitch: org.webhookUrl !== null && plan.name !== 'Kalinga Cebu',
        qrEnabledForTraining: this.rng.chance(0.85),
        isOrcaNavigationAllowed: this.rng.chance(0.4),
        isCervaicalNavigationAllowed: this.rng.chance(0.4),
        enableSendSmsToPatient: this.rng.chance(0.5),
        enableSendEmailToPatient: this.rng.chance(0.5),
        includeConsentFormInReport: this.rng.chance(0.6),
        automaticTileSelectionEnabled: this.rng.chance(0.3),
        isStorageOptimised: this.rng.chance(0.2),
        isBookingEnabled: org.bookingEnabled,
        allowOfflinePayment: plan.name === fixedBookingOrg || (org.bookingEnabled && this.rng.chance(0.5)),
        price: org.bookingEnabled ? org.price : null,
        currency: country.currency,
        totalBookingsPerSlot: org.bookingEnabled ? org.slotCapacity : null,
        canBeCancelBefore:
          plan.name === fixedBookingOrg ? 24 : org.bookingEnabled ? this.rng.pick([12, 24, 48]) : null,
        customizedMessage: this.rng.chance(0.3)
          ? `Thank you for visiting ${plan.name}. Please bring this report to your next appointment.`
          : null,
        ibeConsentForm: CONSENT.en.ibe,
        availableDays: org.bookingEnabled ? [...DEMO_BOOKING_DAYS] : [0, 1, 2, 3, 4],
        localize,
        companyInfo: {
          name: plan.name,
          city: city.name,
          zip_code: city.zip,
          state: city.state,
          address: `${street}, ${area}`,
          email: `contact@${slug(plan.name)}.test`,
          contact_number: mobile,
          country_code: country.code,
          profile_image_path: null,
        },
        created,
        modified: created,
        createdBy: 1,
      });
      for (const child of plan.children ?? []) visit(child, org);
    };
    for (const plan of ORGANIZATION_PLAN) visit(plan, null);
    await copyRows(this.database, schema.organizations, rows);
    // The organization's booking page is made with it by a trigger at the clock's now(): dated with the organization.
    await this.database.exec(
      'UPDATE booking_pages b SET created = o.created, modified = o.created FROM organizations o WHERE o.id = b.organization_id',
    );

    const references: Insert<typeof schema.references>[] = [];
    const referenceNames = [
      'Community health worker',
      'Walk-in',
      'Camp outreach',
      'Physician referral',
      'Radio announcement',
      'Self-help group',
      'Employer programme',
    ];
    for (const org of this.orgs) {
      const ids: number[] = [];
      for (const name of this.rng.sample(referenceNames, this.rng.int(2, 4))) {
        const id = references.length + 1;
        const isActive = this.rng.chance(0.85);
        references.push({
          id,
          name,
          isActive,
          organizationId: org.id,
          created: org.created,
          modified: org.created,
          createdBy: 1,
        });
        if (isActive) ids.push(id);
      }
      this.referencesByOrg.set(org.id, ids);
    }
    await copyRows(this.database, schema.references, references);
  }

  // ---- users ---------------------------------------------------------------------------------------------

  private addUser(
    fields: Pick<Insert<typeof schema.users>, 'userType' | 'organizationId'> &
      Partial<Insert<typeof schema.users>>,
    country: Country,
    demo?: DemoAccount,
  ): number {
    const id = this.users.length + 1;
    const female = this.rng.chance(0.7);
    const firstName = demo?.first_name ?? this.rng.pick(female ? country.female : country.male);
    const lastName = demo?.last_name ?? this.rng.pick(country.last);
    const username = this.uniqueUsername(
      demo ? (demo.email.split('@')[0] ?? '') : `${ascii(firstName)}.${ascii(lastName)}`,
    );
    let mobile: string | null;
    if (demo) {
      mobile = `${DEMO_DIAL_CODE}-${demo.mobile}`;
      this.usedMobiles.add(mobile);
    } else {
      mobile = fields.userType === 'TECHNICIAN' && this.rng.chance(0.1) ? null : this.uniqueMobile(country);
    }
    const needsEmail = fields.userType !== 'TECHNICIAN' || mobile === null || this.rng.chance(0.6);
    const org = fields.organizationId ? this.orgs[fields.organizationId - 1] : undefined;
    const domain = org ? `${slug(org.name)}.test` : 'screening-programme.test';
    const created =
      fields.created ??
      this.between((org?.created.getTime() ?? this.ago(900).getTime()) + DAY, this.nowMs - 10 * DAY);
    this.users.push({
      id,
      firstName,
      lastName,
      username,
      email: demo?.email ?? (needsEmail ? `${username}@${domain}` : null),
      mobile,
      mobileCountryCode: demo ? demo.country : country.code,
      passwordHash: this.passwordHash,
      created,
      modified: created,
      createdBy: 1,
      ...fields,
    });
    if (demo) this.demoIds.set(demo.email, id);
    return id;
  }

  /** A certificate issued `daysAgo` days ago for a year: due for re-certification from 335 days on. */
  private dueCertificate(daysAgo: number): Partial<Insert<typeof schema.users>> {
    const issued = this.ago(daysAgo);
    return {
      ibeTrainingStatus: 'CERTIFIED',
      certificateIssueDate: isoDate(issued),
      certificateExpiryDate: isoDate(new Date(issued.getTime() + 365 * DAY)),
    };
  }

  private trainingFields(certifiedShare: number): Partial<Insert<typeof schema.users>> {
    if (this.rng.chance(certifiedShare)) {
      // Some certificates expired or expire within 30 days: the re-certification list has work.
      const issued = this.ago(this.rng.chance(0.15) ? this.rng.int(340, 420) : this.rng.int(5, 330));
      const expiry = new Date(issued.getTime() + 365 * DAY);
      return {
        ibeTrainingStatus: 'CERTIFIED',
        certificateIssueDate: isoDate(issued),
        certificateExpiryDate: isoDate(expiry),
      };
    }
    const status = this.rng.pick(TRAINING_STATUSES.filter((s) => s !== 'CERTIFIED'));
    return { ibeTrainingStatus: status };
  }

  private async usersAndLinks(): Promise<void> {
    const india: Country = COUNTRIES.IN;
    const demo = (email: string) => {
      const account = DEMO_ACCOUNTS.find((a) => a.email === email);
      if (!account) throw new Error(`demo account ${email} missing`);
      return account;
    };
    const orgId = (key: OrgKey) => {
      const org = this.orgByKey.get(key);
      if (!org) throw new Error(`organization ${key} missing from the plan`);
      return org.id;
    };
    const early = this.ago(1000);
    this.addUser(
      { userType: 'ADMIN', organizationId: null, created: early, lastUsedDashboardPath: '/dashboard' },
      india,
      demo('admin@demo.test'),
    );
    this.addUser(
      { userType: 'SUB_ADMIN', organizationId: null, created: early },
      india,
      demo('subadmin@demo.test'),
    );
    this.addUser(
      { userType: 'DISTRIBUTOR_ADMIN', organizationId: orgId('demoDistributor') },
      india,
      demo('distributor@demo.test'),
    );
    this.addUser(
      { userType: 'ORG_ADMIN', organizationId: orgId('demoClinic') },
      india,
      demo('orgadmin@demo.test'),
    );
    this.addUser(
      {
        userType: 'TECHNICIAN',
        organizationId: orgId('demoClinic'),
        ...this.trainingFields(1),
        isTrainer: true,
        certificateIssueDate: isoDate(this.ago(200)),
        certificateExpiryDate: isoDate(this.ago(200 - 365)),
      },
      india,
      demo('technician@demo.test'),
    );
    const managerId = this.addUser(
      { userType: 'MANAGER', organizationId: null },
      india,
      demo('manager@demo.test'),
    );
    const reviewerId = this.addUser(
      { userType: 'CERVAICAL_REVIEWER', organizationId: null },
      india,
      demo('reviewer@demo.test'),
    );
    this.reviewers.push({ id: reviewerId, treeOf: null });

    this.addUser({ userType: 'ADMIN', organizationId: null, created: early }, india);
    for (let i = 0; i < 2; i++)
      this.addUser({ userType: 'SUB_ADMIN', organizationId: null }, this.rng.pick(Object.values(COUNTRIES)));

    for (const org of this.orgs) {
      if (org.isDistributor) {
        if (org.key !== 'demoDistributor')
          this.addUser({ userType: 'DISTRIBUTOR_ADMIN', organizationId: org.id }, org.country);
        continue;
      }
      const orgAdmin =
        org.key === 'demoClinic'
          ? (this.demoIds.get('orgadmin@demo.test') ?? 0)
          : this.addUser({ userType: 'ORG_ADMIN', organizationId: org.id }, org.country);
      const technicians = org.key === 'demoClinic' ? [this.demoIds.get('technician@demo.test') ?? 0] : [];
      // The demo clinic and the demo manager's clinics hold more than a page of users (10), so each role's Users
      // list pages; one demo-clinic technician has a PIN reset pending.
      const count =
        org.key === 'demoClinic'
          ? 9
          : org.key === 'managerIndia' || org.key === 'managerKenya'
            ? this.rng.int(4, 6)
            : this.rng.int(1, 3);
      for (let i = 0; i < count; i++) {
        technicians.push(
          this.addUser(
            {
              userType: 'TECHNICIAN',
              organizationId: org.id,
              isTrainer: this.rng.chance(0.1),
              ...this.trainingFields(0.65),
              ...(org.key === 'demoClinic' && i === 0 ? { pinResetRequest: true } : {}),
              // The demo manager's clinics (one of them in the demo distributor's tree) each hold two technicians due
              // for re-certification: one expired, one expiring within the 30-day window.
              ...((org.key === 'managerIndia' || org.key === 'managerKenya') && i < 2
                ? this.dueCertificate(i === 0 ? 400 : 350)
                : {}),
            },
            org.country,
          ),
        );
      }
      const weight =
        org.key === 'demoClinic' ? 4 : org.key === 'managerIndia' || org.key === 'managerKenya' ? 2 : 1;
      const clinic: Clinic = { org, technicians, orgAdmin, devices: [], weight, patients: [] };
      this.clinics.push(clinic);
      this.clinicByOrg.set(org.id, clinic);
    }

    // Users outside every organization: unassigned technicians, disabled ones, managers and reviewers.
    for (let i = 0; i < 6; i++) {
      this.addUser(
        { userType: 'TECHNICIAN', organizationId: null, ...this.trainingFields(0.3) },
        this.rng.pick(Object.values(COUNTRIES)),
      );
    }
    for (let i = 0; i < 2; i++) {
      const clinic = this.rng.pick(this.clinics);
      this.addUser(
        { userType: 'TECHNICIAN', organizationId: clinic.org.id, isValid: false },
        clinic.org.country,
      );
    }
    const managers = [managerId];
    for (let i = 0; i < 3; i++)
      managers.push(
        this.addUser({ userType: 'MANAGER', organizationId: null }, this.rng.pick(Object.values(COUNTRIES))),
      );
    for (let i = 0; i < 2; i++) {
      this.reviewers.push({
        id: this.addUser({ userType: 'CERVAICAL_REVIEWER', organizationId: null }, india),
        treeOf: null,
      });
    }
    // A reviewer scoped to one distributor's tree (architecture §6).
    const sakhi = this.orgs.find((o) => o.name === 'Sakhi Diagnostics');
    if (sakhi)
      this.reviewers.push({
        id: this.addUser({ userType: 'CERVAICAL_REVIEWER', organizationId: sakhi.id }, india),
        treeOf: sakhi.treePath,
      });
    await copyRows(this.database, schema.users, this.users);

    // The demo manager spans two distributors' trees; the others get a few organizations each.
    const links: Insert<typeof schema.managerOrganizations>[] = [];
    const link = (userId: number, organizationId: number) => {
      const created = this.ago(this.rng.int(30, 300));
      links.push({ id: links.length + 1, userId, organizationId, created, modified: created, createdBy: 1 });
      const org = this.orgs.find((o) => o.id === organizationId);
      if (org) this.managerLinks.set(userId, [...(this.managerLinks.get(userId) ?? []), org]);
    };
    link(managerId, orgId('managerIndia'));
    link(managerId, orgId('managerKenya'));
    for (const manager of managers.slice(1)) {
      for (const org of this.rng.sample(this.orgs, this.rng.int(2, 4))) link(manager, org.id);
    }
    await copyRows(this.database, schema.managerOrganizations, links);
  }

  // ---- devices -------------------------------------------------------------------------------------------

  private newDevice(): DeviceInfo {
    const index = this.devices.length;
    const tablet = this.rng.pick(TABLETS);
    const device: DeviceInfo = {
      index,
      serial: `IBE${22 + (index % 4)}${String(1001 + index * 7)}`,
      sensor: `SNS-${String(40000 + index * 13)}`,
      tablet: `R${this.rng.digits(2)}N${this.rng.digits(7)}`,
      hardware: this.rng.pick(['3.0', '3.1', '4.0']),
      // Fleet health: about half report firmware older than the latest on record (v2.14).
      software: this.rng.pick(['2.9.0', '2.12.1', '2.14.0', '2.14.0']),
      model: tablet.model,
      manufacturer: tablet.manufacturer,
      os: this.rng.pick(['Android 12', 'Android 13', 'Android 14']),
      localCounter: 0,
    };
    this.devices.push(device);
    return device;
  }

  private async devicesAndLinks(): Promise<void> {
    const links: Insert<typeof schema.organizationDevices>[] = [];
    const addLink = (
      device: DeviceInfo,
      organizationId: number | null,
      created: Date,
      endedAt: Date | null,
    ) => {
      links.push({
        id: links.length + 1,
        deviceId: device.index + 1,
        organizationId,
        isActive: endedAt === null,
        endedAt,
        created,
        modified: endedAt ?? created,
        createdBy: 1,
      });
    };
    for (const clinic of this.clinics) {
      const count = clinic.org.key === 'demoClinic' || this.rng.chance(0.12) ? 2 : 1;
      for (let i = 0; i < count; i++) {
        const device = this.newDevice();
        clinic.devices.push(device);
        const linked = this.between(clinic.org.created.getTime(), clinic.org.created.getTime() + 30 * DAY);
        // A few devices came from another organization: the ended link is history.
        if (this.rng.chance(0.1)) {
          const previous = this.rng.pick(this.clinics);
          const earlier = new Date(linked.getTime() - this.rng.int(30, 200) * DAY);
          addLink(device, previous.org.id, earlier, linked);
        }
        addLink(device, clinic.org.id, linked, null);
      }
    }
    // Unassigned (active link without organization) and never-linked devices.
    for (let i = 0; i < 3; i++) {
      const device = this.newDevice();
      const from = this.ago(this.rng.int(200, 400));
      addLink(device, this.rng.pick(this.clinics).org.id, from, this.ago(this.rng.int(20, 150)));
      addLink(device, null, this.ago(this.rng.int(1, 19)), null);
    }
    for (let i = 0; i < 6; i++) this.newDevice();
    // Fleet health: a few devices still linked to a clinic stopped uploading (silent over 30 days). Built without
    // the random generator, so the rest of the data set is unchanged; they take no part in the generated scans.
    const silentSince = new Map<number, Date>();
    this.clinics.slice(0, 3).forEach((clinic, i) => {
      const device: DeviceInfo = {
        index: this.devices.length,
        serial: `IBE29${9001 + i}`,
        sensor: `SNS-${90001 + i}`,
        tablet: `R00N${String(9000001 + i)}`,
        hardware: '3.0',
        software: i === 0 ? '2.9.0' : '2.14.0',
        model: 'Galaxy Tab A8',
        manufacturer: 'samsung',
        os: 'Android 12',
        localCounter: 0,
      };
      this.devices.push(device);
      addLink(device, clinic.org.id, this.ago(400 + i * 30), null);
      silentSince.set(device.index, this.ago(45 + i * 25));
    });

    const rows: Insert<typeof schema.devices>[] = this.devices.map((d) => {
      const created = this.ago(900 - d.index * 3);
      return {
        id: d.index + 1,
        serialNumber: d.serial,
        name: `iBreastExam ${d.index + 1}`,
        hardwareVersion: d.hardware,
        softwareVersion: d.software,
        lastSyncDate: silentSince.get(d.index) ?? null,
        created,
        modified: created,
        createdBy: 1,
      };
    });
    await copyRows(this.database, schema.devices, rows);
    await copyRows(this.database, schema.organizationDevices, links);
  }

  private async firmware(): Promise<void> {
    const versions = [
      'v1.0',
      'v1.2',
      'v1.5',
      'v1.8',
      'v2.0',
      'v2.3',
      'v2.5',
      'v2.7',
      'v2.9',
      'v2.10',
      'v2.11',
      'v2.12',
      'v2.13',
      'v2.14',
    ];
    const rows: Insert<typeof schema.firmware>[] = versions.map((version, i) => {
      const created = this.ago(1000 - i * 70);
      return {
        id: i + 1,
        version,
        // A real .ibe text behind each version, built on its first download (modules/firmware/firmware-demo.ts).
        ...demoFirmwareFile(version),
        created,
        modified: created,
        createdBy: 1,
      };
    });
    await copyRows(this.database, schema.firmware, rows);
  }

  // ---- tutorials -----------------------------------------------------------------------------------------

  private async tutorials(): Promise<void> {
    const modules: Insert<typeof schema.tutorialModules>[] = [];
    const quizzes: Insert<typeof schema.tutorialQuizzes>[] = [];
    const options: Insert<typeof schema.tutorialQuizOptions>[] = [];
    const contents: Insert<typeof schema.tutorialContents>[] = [];
    const created = this.ago(700);
    const ibe = this.appVersionIds.IBE;
    const plans: readonly TutorialPlan[] = [
      ...TUTORIALS,
      ...EXTRA_TUTORIALS,
      STEP_BY_STEP_TUTORIAL,
      {
        name: 'Advanced cases',
        localize: {},
        contents: [{ title: 'Dense tissue', text: 'Draft: scanning dense breast tissue.', localize: {} }],
        quizzes: [],
      },
    ];
    plans.forEach((plan, m) => {
      const moduleId = m + 1;
      const zOrder = m + 1;
      const isDraft = m === plans.length - 1;
      const localize: Record<string, schema.ModuleLocalize> = {};
      for (const [iso, name] of Object.entries(plan.localize)) localize[iso] = { name };
      modules.push({
        id: moduleId,
        name: plan.name,
        passText: 'Well done! You passed this module.',
        reTakeModuleAgainText: 'Please take the module again.',
        reTakeModuleText: 'Retake module',
        reTakeQuestionPercentage: 80,
        reTakeQuestionText: 'Some answers were wrong. Try these questions again.',
        zOrder,
        icon: `assets/tutorials/icons/module_${zOrder}.png`,
        status: isDraft ? 'DRAFT' : 'PUBLISHED',
        localize,
        created,
        modified: created,
        createdBy: 1,
      });
      plan.contents.forEach((c, i) => {
        const contentLocalize: Record<string, schema.ContentLocalize> = {};
        for (const [iso, [title, text]] of Object.entries(c.localize))
          contentLocalize[iso] = { title, primary_text: text };
        contents.push({
          id: contents.length + 1,
          title: c.title,
          primaryText: c.text,
          zOrder: i + 1,
          primaryImage: `assets/tutorials/tutorial_module_${zOrder}/${slug(c.title).replace(/-/g, '_')}.mp4`,
          appVersionId: at(ibe, Math.min(ibe.length - 1, 4 + m)),
          moduleId,
          status: isDraft ? 'DRAFT' : 'PUBLISHED',
          localize: contentLocalize,
          created,
          modified: created,
          createdBy: 1,
        });
      });
      plan.quizzes.forEach((q, i) => {
        const quizId = quizzes.length + 1;
        const correct = q.options.filter(([, ok]) => ok).length;
        const quizLocalize: Record<string, schema.QuizLocalize> = {};
        for (const [iso, question] of Object.entries(q.localize)) quizLocalize[iso] = { question };
        quizzes.push({
          id: quizId,
          question: q.question,
          isMultiSelect: correct > 1,
          zOrder: i + 1,
          primaryImage: null,
          moduleId,
          localize: quizLocalize,
          created,
          modified: created,
          createdBy: 1,
        });
        q.options.forEach(([option, isCorrect], k) => {
          options.push({
            id: options.length + 1,
            option,
            questionId: quizId,
            zOrder: k + 1,
            isSelectAllOrNone: option === 'All of the above',
            isCorrect,
            // Options are short; a translated option echoes the quiz language code to show the mechanism.
            localize: Object.fromEntries(
              Object.keys(q.localize).map((iso) => [iso, { option: `${option} (${iso})` }]),
            ),
            created,
            modified: created,
            createdBy: 1,
          });
        });
      });
    });
    await copyRows(this.database, schema.tutorialModules, modules);
    await copyRows(this.database, schema.tutorialQuizzes, quizzes);
    await copyRows(this.database, schema.tutorialQuizOptions, options);
    await copyRows(this.database, schema.tutorialContents, contents);

    // Tutorial status: certified technicians finished every published module; trainees part of them.
    const completions: Insert<typeof schema.tutorialModuleCompletions>[] = [];
    const published = plans.length - 1;
    for (const user of this.users) {
      if (user.userType !== 'TECHNICIAN' || user.id === undefined) continue;
      const status = user.ibeTrainingStatus ?? 'NOT_STARTED';
      const done =
        status === 'CERTIFIED'
          ? published
          : status === 'PRACTICE'
            ? published - 1
            : status === 'TRAINING'
              ? 2
              : status === 'PRE_TRAINING'
                ? 1
                : 0;
      for (let m = 0; m < Math.min(published, done + 1); m++) {
        const completed = m < done;
        const at_ = this.ago(this.rng.int(20, 300));
        completions.push({
          id: completions.length + 1,
          userId: user.id,
          moduleId: m + 1,
          completed,
          progress: completed ? 100 : this.rng.int(10, 90),
          completedAt: completed ? at_ : null,
          created: at_,
          modified: at_,
        });
      }
    }
    await copyRows(this.database, schema.tutorialModuleCompletions, completions);
  }

  // ---- patients and scans --------------------------------------------------------------------------------

  private pickClinic(cumulative: readonly number[], total: number): Clinic {
    const target = this.rng.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(cumulative, mid) > target) hi = mid;
      else lo = mid + 1;
    }
    return at(this.clinics, lo);
  }

  private async patientsAndScans(scale: number): Promise<void> {
    const patientTotal = Math.max(300, Math.round(scale * 0.45));
    this.patientCount = patientTotal;
    const cumulative: number[] = [];
    let total = 0;
    for (const clinic of this.clinics) cumulative.push((total += clinic.weight));

    // Compact per-patient facts the scans need (a million scans must not hold a million objects).
    const pClinic = new Int32Array(patientTotal);
    const pTech = new Int32Array(patientTotal);
    const pDevice = new Int32Array(patientTotal);
    const pTime = new Float64Array(patientTotal);
    const pUnassigned = new Uint8Array(patientTotal);
    const pAge = new Int32Array(patientTotal);
    this.firstVisit = pTime;

    const batch: Insert<typeof schema.patients>[] = [];
    for (let i = 0; i < patientTotal; i++) {
      const id = i + 1;
      const clinicIndex = this.clinics.indexOf(this.pickClinic(cumulative, total));
      const clinic = at(this.clinics, clinicIndex);
      const country = clinic.org.country;
      const technicianId = this.rng.pick(clinic.technicians);
      const device = this.rng.pick(clinic.devices);
      const dateTime = this.between(
        Math.max(clinic.org.created.getTime(), this.nowMs - 420 * DAY),
        this.nowMs - 2 * 3600_000,
      );
      // Synced some minutes after the visit, but never after now: the demo's time ends when it is loaded.
      const synced = new Date(Math.min(this.nowMs, dateTime.getTime() + this.rng.int(2, 600) * MINUTE));
      const age = this.rng.int(25, 75);
      const unassigned = this.rng.chance(0.02);
      const gender = this.rng.chance(0.96) ? 'FEMALE' : this.rng.chance(0.75) ? 'MALE' : 'OTHER';
      const firstName = this.rng.pick(gender === 'MALE' ? country.male : country.female);
      const lastName = this.rng.pick(country.last);
      const dob = new Date(
        Date.UTC(dateTime.getUTCFullYear() - age, this.rng.int(0, 11), this.rng.int(1, 28)),
      );
      const references = this.referencesByOrg.get(clinic.org.id) ?? [];
      const physician = this.rng.chance(0.5)
        ? `${this.rng.pick(country.female)} ${this.rng.pick(country.last)}`
        : null;
      pClinic[i] = clinicIndex;
      pTech[i] = technicianId;
      pDevice[i] = device.index;
      pTime[i] = dateTime.getTime();
      pUnassigned[i] = unassigned ? 1 : 0;
      pAge[i] = age;
      if (!unassigned) clinic.patients.push(id);
      batch.push({
        id,
        firstName,
        lastName,
        mobile: this.rng.chance(0.85) ? `${country.dialCode}-${country.mobile(this.rng)}` : null,
        mobileCountryCode: country.code,
        age,
        dateOfBirth: isoDate(dob),
        email: this.rng.chance(0.3) ? `${ascii(firstName)}.${ascii(lastName)}${id}@mail.test` : null,
        gender,
        clinicPatientId: this.rng.chance(0.5) ? `CP-${clinic.org.id}-${1000 + id}` : null,
        physicianName: physician ? `Dr. ${physician}` : null,
        physicianEmail: physician && this.rng.chance(0.5) ? `${ascii(physician)}@clinic.test` : null,
        referenceId: references.length > 0 && this.rng.chance(0.4) ? this.rng.pick(references) : null,
        organizationId: unassigned ? null : clinic.org.id,
        technicianId: unassigned ? null : technicianId,
        ...demoReminderConsent(id, unassigned ? null : country.languageIso),
        dateTime,
        localDbId: `p${id}`,
        deviceSerialNumber: device.serial,
        mostRecentMammogramReport: this.rng.chance(0.1) ? [demoMammogramPath(id)] : [],
        synced,
        // Registered on the device at the first visit, so before any of her scans (which the sync may follow).
        created: dateTime,
        modified: synced,
        createdBy: technicianId,
      });
      if (batch.length === SCAN_BATCH) {
        await copyRows(this.database, schema.patients, batch);
        batch.length = 0;
      }
    }
    await copyRows(this.database, schema.patients, batch);
    this.log(`patients: ${patientTotal}`);

    const scanTypeWeights: [(typeof SCAN_TYPES)[number], number][] = [
      ['SCAN', 0.82],
      ['PRE_TRAINING', 0.05],
      ['TRAINING', 0.07],
      ['PRACTICE', 0.06],
    ];
    const pickType = () => {
      let r = this.rng.next();
      for (const [type, w] of scanTypeWeights) if ((r -= w) < 0) return type;
      return 'SCAN';
    };
    const scans: Insert<typeof schema.scans>[] = [];
    const webhookOrgIds = new Set(this.orgs.filter((o) => o.webhookUrl).map((o) => o.id));
    // The demo accounts' training histories take the last ids; `scale` stays the number of scans.
    const history = this.trainingHistory(scale);
    const facts = { pClinic, pTech, pDevice, pTime, pUnassigned, pAge };
    for (let i = 0; i < scale - history.length; i++) {
      const id = i + 1;
      // About 1% are duplicate uploads of a recent scan: a child row with the parent's device and local id.
      const parent =
        scans.length > 10 && this.rng.chance(0.01)
          ? scans[scans.length - this.rng.int(1, Math.min(scans.length, 50))]
          : undefined;
      if (parent && parent.parentScanId == null && parent.id !== undefined) {
        const created = new Date((parent.created?.getTime() ?? this.nowMs) + this.rng.int(5, 600) * MINUTE);
        scans.push({
          ...parent,
          id,
          parentScanId: parent.id,
          created: new Date(Math.min(created.getTime(), this.nowMs)),
          modified: created,
        });
      } else {
        scans.push(
          this.scanRow(id, this.rng.int(0, patientTotal - 1), pickType(), facts),
        );
      }
      const row = at(scans, scans.length - 1);
      if (row.organizationId && webhookOrgIds.has(row.organizationId) && row.scanType === 'SCAN') {
        const list = this.webhookScans.get(row.organizationId) ?? [];
        list.push(id);
        if (list.length > 30) list.shift();
        this.webhookScans.set(row.organizationId, list);
      }
      if (scans.length === SCAN_BATCH) {
        await copyRows(this.database, schema.scans, scans);
        scans.length = 0;
        this.log(`scans: ${id}`);
      }
    }
    history.forEach((planned, k) => scans.push(this.historyScanRow(scale - history.length + k + 1, planned, facts)));
    await copyRows(this.database, schema.scans, scans);
    for (const [patientId, at_] of this.earlierVisits) {
      await this.database.query('UPDATE patients SET created = $1, date_time = $1 WHERE id = $2', [
        new Date(at_).toISOString(),
        patientId,
      ]);
    }
  }

  /**
   * Training and practice scans of the demo technician, the other trainees of the demo clinic, the demo ORG Admin and
   * the demo Distributor (in a clinic of its network), within a twentieth of `scale`.
   */
  private trainingHistory(scale: number): Array<PlannedScan & { clinic: Clinic }> {
    const demoClinic = this.clinics.find((c) => c.org.key === 'demoClinic');
    const distributor = this.orgByKey.get('demoDistributor');
    const networkClinic = distributor
      ? this.clinics.find((c) => c.org.treePath.startsWith(distributor.treePath) && c.patients.length > 0)
      : undefined;
    const trainees: Array<Trainee & { clinic: Clinic }> = [];
    const add = (userId: number | undefined, clinic: Clinic | undefined, training: number, practice: number) => {
      const user = this.users.find((u) => u.id === userId);
      if (!user?.id || !clinic || clinic.patients.length === 0) return;
      trainees.push({ userId: user.id, clinic, certificateIssueDate: user.certificateIssueDate ?? null, training, practice });
    };
    const technicianId = this.demoIds.get('technician@demo.test');
    add(technicianId, demoClinic, 36, 28);
    for (const id of demoClinic?.technicians ?? []) {
      if (id === technicianId) continue;
      const status = this.users.find((u) => u.id === id)?.ibeTrainingStatus;
      if (status === 'TRAINING') add(id, demoClinic, 10, 0);
      else if (status === 'PRACTICE') add(id, demoClinic, 14, 8);
      else if (status === 'CERTIFIED') add(id, demoClinic, 12, 10);
    }
    add(this.demoIds.get('orgadmin@demo.test'), demoClinic, 6, 5);
    add(this.demoIds.get('distributor@demo.test'), networkClinic, 5, 4);
    const fitted = fitToBudget(trainees, Math.floor(scale / 20));
    const clinicOf = new Map(fitted.map((t) => [t.userId, t.clinic]));
    return planTrainingHistories(this.rng, fitted, this.nowMs).flatMap((planned) => {
      const clinic = clinicOf.get(planned.userId);
      return clinic ? [{ ...planned, clinic }] : [];
    });
  }

  /** A planned training or practice scan as a row: a patient of the trainee's clinic seen by then, if there is one. */
  private historyScanRow(
    id: number,
    planned: PlannedScan & { clinic: Clinic },
    facts: Parameters<Seeder['scanRow']>[3],
  ): Insert<typeof schema.scans> {
    const seen = planned.clinic.patients.filter((patientId) => (facts.pTime[patientId - 1] ?? Infinity) <= planned.at.getTime());
    const patientId = this.rng.pick(seen.length > 0 ? seen : planned.clinic.patients);
    const firstVisit = facts.pTime[patientId - 1] ?? 0;
    if (planned.at.getTime() < firstVisit) {
      const earliest = Math.min(this.earlierVisits.get(patientId) ?? Infinity, planned.at.getTime());
      this.earlierVisits.set(patientId, earliest);
    }
    const row = this.scanRow(id, patientId - 1, planned.kind, facts);
    const created = new Date(Math.min(this.nowMs, planned.at.getTime() + this.rng.int(5, 600) * MINUTE));
    return {
      ...row,
      technicianId: planned.userId,
      createdBy: planned.userId,
      dateTime: planned.at,
      created,
      modified: created,
      assessmentResult: planned.result,
      assessmentApproved: planned.approved,
      trainingScanObservation: planned.verified === null ? {} : { practice_verified: planned.verified },
    };
  }

  private scanRow(
    id: number,
    p: number,
    scanType: (typeof SCAN_TYPES)[number],
    facts: {
      pClinic: Int32Array;
      pTech: Int32Array;
      pDevice: Int32Array;
      pTime: Float64Array;
      pUnassigned: Uint8Array;
      pAge: Int32Array;
    },
  ): Insert<typeof schema.scans> {
    const clinic = at(this.clinics, facts.pClinic[p] ?? 0);
    const device = at(this.devices, facts.pDevice[p] ?? 0);
    const rng = this.rng;
    // A patient's scans fall within four months of the first visit, so scans spread evenly over the year.
    const first = facts.pTime[p] ?? this.nowMs;
    const dateTime = this.between(first, Math.min(this.nowMs - 30 * MINUTE, first + 120 * DAY));
    const created = new Date(Math.min(this.nowMs, dateTime.getTime() + rng.int(2, 3 * 24 * 60) * MINUTE));
    const technicianId = rng.chance(0.9)
      ? (facts.pTech[p] ?? clinic.orgAdmin)
      : rng.pick([...clinic.technicians, clinic.orgAdmin]);
    const isScan = scanType === 'SCAN';
    const positive = rng.chance(isScan ? 0.12 : 0.08);
    const sides = positive ? rng.int(1, 3) : 0;
    const finding = () => rng.sample(BREAST_FINDINGS, rng.int(1, 2));
    const left = sides & 1 ? finding() : [];
    const right = sides & 2 ? finding() : [];
    const assessment = isScan
      ? 'NO_ASSESSMENT'
      : rng.pick<(typeof ASSESSMENT_RESULTS)[number]>([
          'CORRECT',
          'CORRECT',
          'CORRECT',
          'INCORRECT',
          'INCORRECT',
          'BYPASS',
          'USER_BYPASS',
          'NO_ASSESSMENT',
        ]);
    const sendReport = rng.chance(0.4);
    device.localCounter++;
    return {
      id,
      patientId: p + 1,
      organizationId: facts.pUnassigned[p] ? null : clinic.org.id,
      technicianId,
      deviceSerialNumber: device.serial,
      sensorSerialNumber: device.sensor,
      tabletSerialNumber: device.tablet,
      hardwareVersion: device.hardware,
      softwareVersion: device.software,
      dateTime,
      isSurvivor: rng.chance(0.04),
      hasFamilyHistory: rng.chance(0.12),
      hasSymptoms: rng.chance(positive ? 0.5 : 0.12),
      underBust: round(70 + rng.next() * 30, 1),
      overBust: round(82 + rng.next() * 33, 1),
      latitude: rng.chance(0.97) ? round(clinic.org.lat + (rng.next() - 0.5) * 0.1, 6) : null,
      longitude: rng.chance(0.97) ? round(clinic.org.lng + (rng.next() - 0.5) * 0.1, 6) : null,
      localDbId: String(device.localCounter),
      metadata: {
        device: { device_model: device.model, manufacturer: device.manufacturer, os_version: device.os },
      },
      scanType,
      parentScanId: null,
      // Most real scans keep their sensor recording; training on models less often (one draw either way).
      isReplayAvailable: rng.chance(isScan ? 0.85 : 0.5),
      // Built from this row on the first read of each path (modules/scan-files), never at load time.
      scanFilesPath: {
        reports: [{ path: demoScanFilePath('reports', id) }],
        // Every training and practice scan has its assessment, most pre-training ones (the same draws as before).
        assessment_files:
          !isScan && (rng.chance(0.8) || scanType !== 'PRE_TRAINING')
            ? [{ path: demoScanFilePath('assessment_files', id) }]
            : [],
        consent_form: rng.chance(0.7) ? [{ path: demoScanFilePath('consent_form', id) }] : [],
      },
      assessmentResult: assessment,
      assessmentApproved: isScan
        ? null
        : assessment === 'CORRECT'
          ? true
          : assessment === 'INCORRECT'
            ? false
            : null,
      trainingScanObservation: scanType === 'PRACTICE' ? { practice_verified: rng.chance(0.7) } : {},
      breastType: rng.int(1, 3),
      leftBreastFinding: left,
      rightBreastFinding: right,
      notes: rng.chance(0.2) ? { message: rng.pick(SCAN_NOTES) } : {},
      sendReportToPatient: sendReport,
      sentReportToPatient: sendReport && rng.chance(0.8),
      nextAppointmentDate: rng.chance(0.3) ? isoDate(new Date(dateTime.getTime() + 180 * DAY)) : null,
      created,
      modified: created,
      createdBy: technicianId,
    };
  }

  // ---- cervical, ORCA, licences --------------------------------------------------------------------------

  private async cervicalAndOrcaAndLicences(scale: number): Promise<void> {
    const rng = this.rng;
    const withPatients = this.clinics.filter((c) => c.patients.length > 0);
    const demoClinic = withPatients.find((c) => c.org.key === 'demoClinic');
    // Clinics every demo scope must see exams of: the demo clinic, the demo manager's two (one inside the demo
    // distributor's tree) and, for each other MANAGER, one clinic under its links.
    const byKey = (key: OrgKey) => withPatients.find((c) => c.org.key === key);
    const underLinks = [...this.managerLinks.values()].map((orgs) =>
      withPatients.find((c) => orgs.some((o) => c.org.treePath.startsWith(o.treePath))),
    );
    const featured = [
      ...new Set([demoClinic, byKey('managerIndia'), byKey('managerKenya'), ...underLinks]),
    ].filter((c): c is Clinic => c !== undefined);
    const pickClinics = (n: number) => {
      const chosen = rng.sample(withPatients, n);
      // Featured clinics missing from the sample take the places of sampled ones that are not featured.
      const missing = featured.filter((c) => !chosen.includes(c));
      for (let slot = chosen.length - 1; slot >= 0 && missing.length > 0; slot--) {
        if (!featured.includes(chosen[slot] as Clinic)) chosen[slot] = missing.shift() as Clinic;
      }
      return chosen;
    };
    const cervicalClinics = pickClinics(14);
    const orcaClinics = pickClinics(12);
    // The demo clinic takes a quarter of the exams, so its licences' logs run to several pages.
    const pickExamClinic = (clinics: Clinic[]) =>
      demoClinic && clinics.includes(demoClinic) && rng.chance(0.25) ? demoClinic : rng.pick(clinics);

    type LicencePlan = {
      id: number;
      org: Org;
      application: 'ORCA' | 'CERVAICAL';
      used: number;
      code: string;
      created: Date;
      /** Each report that took one of its licences, as the upload logs it (exam time, technician). */
      uses: LicenceUse[];
    };
    const licences: LicencePlan[] = [];
    const newLicence = (org: Org, application: LicencePlan['application']) => {
      const id = licences.length + 1;
      const code = `${application === 'ORCA' ? 'ORC' : 'CRV'}-${rng.digits(4)}-${String(id).padStart(4, '0')}`;
      const plan: LicencePlan = {
        id,
        org,
        application,
        used: 0,
        code,
        created: this.between(org.created.getTime(), this.nowMs - 400 * DAY),
        uses: [],
      };
      licences.push(plan);
      return plan;
    };
    const cervicalLicence = new Map(cervicalClinics.map((c) => [c.org.id, newLicence(c.org, 'CERVAICAL')]));
    const orcaLicence = new Map(orcaClinics.map((c) => [c.org.id, newLicence(c.org, 'ORCA')]));
    // Licences held by organizations that have not used them yet.
    for (const org of rng.sample(this.orgs, 6)) newLicence(org, rng.chance(0.5) ? 'ORCA' : 'CERVAICAL');

    const examBase = (clinic: Clinic) => {
      const patientId = rng.pick(clinic.patients);
      const device = rng.pick(clinic.devices);
      // After the patient's first visit (she is registered then).
      const firstVisit = this.firstVisit[patientId - 1] ?? 0;
      const dateTime = this.between(Math.max(firstVisit, this.nowMs - 400 * DAY), this.nowMs - 30 * MINUTE);
      const created = new Date(Math.min(this.nowMs, dateTime.getTime() + rng.int(2, 2 * 24 * 60) * MINUTE));
      const technicianId = rng.pick(clinic.technicians);
      device.localCounter++;
      return {
        patientId,
        organizationId: clinic.org.id,
        technicianId,
        deviceSerialNumber: device.serial,
        sensorSerialNumber: device.sensor,
        tabletSerialNumber: device.tablet,
        hardwareVersion: device.hardware,
        softwareVersion: device.software,
        dateTime,
        isSurvivor: rng.chance(0.03),
        hasFamilyHistory: rng.chance(0.1),
        hasSymptoms: rng.chance(0.2),
        latitude: round(clinic.org.lat + (rng.next() - 0.5) * 0.1, 6),
        longitude: round(clinic.org.lng + (rng.next() - 0.5) * 0.1, 6),
        localDbId: `x${device.localCounter}`,
        metadata: {
          device: { device_model: device.model, manufacturer: device.manufacturer, os_version: device.os },
        },
        created,
        modified: created,
        createdBy: technicianId,
      };
    };

    // Cervical exams: documents, and reviews following the two-reviewer rule (architecture §7).
    const listed = this.ago(900);
    const qualities: Insert<typeof schema.cervicalQualities>[] = CERVICAL_QUALITIES.map((q, i) => ({
      id: i + 1,
      created: listed,
      modified: listed,
      name: q.name,
      isRequired: q.required,
      zOrder: i + 1,
    }));
    const findings: Insert<typeof schema.cervicalClinicalFindings>[] = CERVICAL_FINDINGS.map((f, i) => ({
      id: i + 1,
      created: listed,
      modified: listed,
      name: f.name,
      isRequired: f.required,
      zOrder: i + 1,
    }));
    await copyRows(this.database, schema.cervicalQualities, qualities);
    await copyRows(this.database, schema.cervicalClinicalFindings, findings);

    const cervicalCount = Math.min(20_000, Math.max(150, Math.round(scale / 12)));
    const exams: Insert<typeof schema.cervicalExams>[] = [];
    const documents: Insert<typeof schema.cervicalDocuments>[] = [];
    const reviews: Insert<typeof schema.cervicalDocumentReviews>[] = [];
    for (let i = 0; i < cervicalCount; i++) {
      const id = i + 1;
      const clinic = pickExamClinic(cervicalClinics);
      const base = examBase(clinic);
      const positive = rng.chance(0.12);
      const hasReport = rng.chance(0.8);
      if (hasReport) {
        const licence = cervicalLicence.get(clinic.org.id);
        if (licence) {
          licence.used++;
          licence.uses.push({ at: base.created, by: base.technicianId });
        }
      }
      const docIds: number[] = [];
      for (let d = 0, n = rng.int(2, 4); d < n; d++) {
        const docId = documents.length + 1;
        const isVideo = rng.chance(0.15);
        documents.push({
          id: docId,
          examId: id,
          path: `documents/cervical/${id}/${docId}.${isVideo ? 'mp4' : 'jpg'}`,
          documentType: isVideo ? 'VIDEO' : 'IMAGE',
          symptomTag: rng.pick(CERVICAL_SYMPTOM_TAGS),
          created: base.created,
          modified: base.created,
        });
        docIds.push(docId);
      }
      const pool = this.reviewers.filter(
        (r) => r.treeOf === null || clinic.org.treePath.startsWith(r.treeOf),
      );
      const pair = rng.sample(pool, 2);
      if (rng.chance(0.5)) pair.reverse();
      const [first, second] = pair;
      const roll = rng.next();
      const statusOf = (reviewer: { id: number } | undefined, all: boolean) => {
        if (!reviewer) return 'NOT_REVIEWED' as const;
        const reviewed = all ? docIds : docIds.slice(0, 1);
        let valid = true;
        reviewed.forEach((documentId, k) => {
          const isValid = rng.chance(0.85);
          valid &&= isValid;
          // Reviewed within ten days of the upload, but not after now (the documents keep their order).
          const at_ = new Date(
            Math.max(
              base.created.getTime(),
              Math.min(
                base.created.getTime() + rng.int(60, 10 * 24 * 60) * MINUTE + k * MINUTE,
                this.nowMs - (reviewed.length - k) * MINUTE,
              ),
            ),
          );
          reviews.push({
            id: reviews.length + 1,
            documentId,
            userId: reviewer.id,
            reviewStatus: isValid ? 'VALID' : 'IN_VALID',
            reviewStatusAt: at_,
            qualities: CERVICAL_QUALITIES.flatMap((q, qi) =>
              q.required || rng.chance(0.6)
                ? [{ id: qi + 1, name: q.name, answer: true, quality: qi + 1 }]
                : [],
            ),
            clinicalFinding: CERVICAL_FINDINGS.flatMap((f, fi) =>
              rng.chance(positive ? 0.3 : 0.05)
                ? [{ id: fi + 1, name: f.name, answer: true, clinical_finding: fi + 1 }]
                : [],
            ),
            created: at_,
            modified: at_,
            createdBy: reviewer.id,
          });
        });
        // A reviewer who has not reviewed every document is still NOT_REVIEWED.
        if (!all && docIds.length > 1) return 'NOT_REVIEWED' as const;
        return valid ? ('VALID' as const) : ('IN_VALID' as const);
      };
      // 35% unreviewed, 5% partly reviewed, 35% reviewer 1 only, 25% both reviewers.
      const one = roll < 0.35 ? undefined : first;
      const oneStatus = statusOf(one, roll >= 0.4);
      const two = roll >= 0.75 ? second : undefined;
      const twoStatus = statusOf(two, true);
      exams.push({
        id,
        ...base,
        breastType: null,
        leftBreastFinding: positive ? [rng.pick(CERVICAL_FINDINGS).name] : [],
        rightBreastFinding: [],
        notes: rng.chance(0.15) ? { message: 'Patient advised to return for results in two weeks.' } : {},
        filePath: {
          reports: hasReport ? [{ path: `reports/cervical/cervical_${id}.pdf` }] : [],
          consent_form: rng.chance(0.8) ? [{ path: `reports/cervical/consent_${id}.pdf` }] : [],
        },
        reviewerOneId: one?.id ?? null,
        reviewerOneStatus: oneStatus,
        reviewerTwoId: two?.id ?? null,
        reviewerTwoStatus: twoStatus,
      });
    }

    // ORCA exams with case history and findings; each report consumes one licence.
    const orcaCount = Math.min(20_000, Math.max(120, Math.round(scale / 15)));
    const orcaExams: Insert<typeof schema.orcaExams>[] = [];
    const histories: Insert<typeof schema.orcaCaseHistories>[] = [];
    const orcaFindings: Insert<typeof schema.orcaFindings>[] = [];
    for (let i = 0; i < orcaCount; i++) {
      const id = i + 1;
      const clinic = pickExamClinic(orcaClinics);
      const base = examBase(clinic);
      const licence = orcaLicence.get(clinic.org.id);
      const hasReport = rng.chance(0.85);
      const use: LicenceUse | undefined =
        licence && hasReport ? { at: base.created, by: base.technicianId } : undefined;
      if (licence && use) {
        licence.used++;
        licence.uses.push(use);
      }
      const orcaExam: Insert<typeof schema.orcaExams> = {
        id,
        ...base,
        underBust: null,
        overBust: null,
        licenseId: licence?.id ?? null,
        licenceCode: licence?.code ?? null,
        currentReportCount: null,
        cancerHistory: rng.chance(0.05),
        filePath: {
          reports: hasReport ? [{ path: `reports/orca/orca_${id}.pdf` }] : [],
          consent_form: rng.chance(0.8) ? [{ path: `reports/orca/consent_${id}.pdf` }] : [],
        },
      };
      // The report counter is the licence's uses up to this exam, set once the uses are in time order below.
      if (use) use.exam = orcaExam;
      orcaExams.push(orcaExam);
      const smokes = rng.chance(0.25);
      const smokeless = rng.chance(0.35);
      const alcohol = rng.chance(0.3);
      const other = rng.chance(0.1);
      histories.push({
        id,
        examId: id,
        consumesAlcohol: alcohol,
        alcoholUsageLastYear: alcohol ? rng.pick(['Daily', 'Weekly', 'Monthly', 'Rarely']) : null,
        consumesOtherSubstance: other,
        otherSubstanceConsumed: other ? rng.sample(OTHER_SUBSTANCES, 1) : [],
        hasHypertension: rng.chance(0.15),
        hadHeartAttack: rng.chance(0.03),
        hasAsthmaBronchitis: rng.chance(0.06),
        hasDiabetes: rng.chance(0.1),
        hasStroke: rng.chance(0.02),
        usesTobacco: smokes || smokeless,
        consumesSmokingTobacco: smokes,
        smokingTobaccoType: smokes ? rng.sample(SMOKING_TYPES, rng.int(1, 2)) : [],
        smokingTobaccoUsageFrequency: smokes ? rng.pick(['Current', 'Occasional', 'Former'] as const) : null,
        smokingHistoryTimeMonths: smokes ? rng.int(6, 360) : null,
        smokesPerUnit: smokes ? rng.int(1, 20) : null,
        smokeCountUnit: smokes ? rng.pick(['day', 'week']) : null,
        smokingQuitMonthsAgo: smokes && rng.chance(0.3) ? rng.int(1, 120) : null,
        consumesSmokelessTobacco: smokeless,
        smokelessTobaccoType: smokeless ? rng.sample(SMOKELESS_TYPES, rng.int(1, 2)) : [],
        smokelessTobaccoUsageFrequency: smokeless
          ? rng.pick(['Current', 'Occasional', 'Former'] as const)
          : null,
        smokelessHistoryTimeMonths: smokeless ? rng.int(6, 360) : null,
        smokelessPacketsCountUnit: smokeless ? rng.int(1, 10) : null,
        smokelessPacketsDurationUnit: smokeless ? rng.pick(['day', 'week']) : null,
        smokelessQuitMonthsAgo: smokeless && rng.chance(0.2) ? rng.int(1, 120) : null,
        created: base.created,
        modified: base.created,
      });
      for (const exam of ['extra_oral_exam', 'intra_oral_exam', 'lymph_node_exam'] as const) {
        const parts = ORCA_PARTS[exam];
        parts.forEach(([part, subPart], index) => {
          // Every photographed part is a finding; most show nothing.
          if (exam !== 'intra_oral_exam' && rng.chance(0.5)) return;
          const findingId = orcaFindings.length + 1;
          orcaFindings.push({
            id: findingId,
            examId: id,
            exam,
            part,
            subPart,
            index,
            symptoms: rng.chance(smokes || smokeless ? 0.3 : 0.08)
              ? rng.sample(ORCA_SYMPTOMS, rng.int(1, 2))
              : [],
            path: `documents/orca/${id}/${findingId}.jpg`,
            created: base.created,
            modified: base.created,
          });
        });
      }
    }

    // Licences: `count` is what is left after the reports above, `total_license_count` what was ever granted.
    const licenceRows: Insert<typeof schema.licences>[] = [];
    const logs: Insert<typeof schema.licenceLogs>[] = [];
    // The log reads as the API writes it: the first grant, one row per report that took a licence (by its
    // technician, at the upload) and the renewals an administrator made when a licence ran out, and at the end so
    // that each keeps some left (architecture §7: every change writes a licence log row).
    for (const l of licences) {
      const renewer = this.demoIds.get('admin@demo.test') ?? 1;
      const uses = [...l.uses].sort((a, b) => a.at.getTime() - b.at.getTime());
      // Granted before its first use.
      const firstUse = uses[0]?.at.getTime() ?? Infinity;
      if (l.created.getTime() >= firstUse) l.created = new Date(firstUse - rng.int(1, 30) * DAY);
      const initial = 100 * rng.int(1, 5);
      let left = initial;
      let total = initial;
      let lastAt = l.created.getTime();
      const log = (before: number, after: number, at: Date, by: number) => {
        logs.push({
          id: logs.length + 1,
          licenseId: l.id,
          beforeCount: before,
          afterCount: after,
          renewalDatetime: at,
          renewedBy: by,
          created: at,
        });
        lastAt = at.getTime();
      };
      const renew = (add: number, at: Date) => {
        log(left, left + add, at, renewer);
        left += add;
        total += add;
      };
      log(0, initial, l.created, renewer);
      uses.forEach((use, k) => {
        if (left === 0) {
          const at = Math.max(lastAt + MINUTE, use.at.getTime() - rng.int(10, 24 * 60) * MINUTE);
          renew(100 * rng.int(1, 5), new Date(Math.min(at, use.at.getTime())));
        }
        log(left, left - 1, use.at, use.by);
        left--;
        if (use.exam) use.exam.currentReportCount = k + 1;
      });
      if (left < 50 || rng.chance(0.3)) renew(100 * rng.int(1, 3), this.between(lastAt + MINUTE, this.nowMs));
      licenceRows.push({
        id: l.id,
        organizationId: l.org.id,
        licenseCode: l.code,
        pin: rng.digits(6),
        application: l.application,
        count: left,
        totalLicenseCount: total,
        isActive: rng.chance(0.9),
        created: l.created,
        modified: new Date(lastAt),
        createdBy: renewer,
      });
    }
    await copyRows(this.database, schema.licences, licenceRows);
    await copyRows(this.database, schema.licenceLogs, logs);
    await copyRows(this.database, schema.cervicalExams, exams);
    await copyRows(this.database, schema.cervicalDocuments, documents);
    await copyRows(this.database, schema.cervicalDocumentReviews, reviews);
    await copyRows(this.database, schema.orcaExams, orcaExams);
    await copyRows(this.database, schema.orcaCaseHistories, histories);
    await copyRows(this.database, schema.orcaFindings, orcaFindings);
  }

  // ---- bookings ------------------------------------------------------------------------------------------

  private async bookings(): Promise<void> {
    const rng = this.rng;
    const slots: Insert<typeof schema.slots>[] = [];
    const bookings: Insert<typeof schema.bookings>[] = [];
    const hex = () => Array.from({ length: 32 }, () => '0123456789abcdef'.charAt(rng.int(0, 15))).join('');
    for (const org of this.orgs.filter((o) => o.bookingEnabled)) {
      const settings = { timezone: org.country.timezone, availableDays: DEMO_BOOKING_DAYS };
      for (const { start, end } of demoSlotTimes(settings, new Date(this.nowMs), -20, 14)) {
        const slotId = slots.length + 1;
        const created = new Date(start.getTime() - 30 * DAY);
        slots.push({
          id: slotId,
          organizationId: org.id,
          start,
          end,
          capacity: org.slotCapacity,
          created,
          modified: created,
        });
        const isPast = end.getTime() < this.nowMs;
        for (let k = 0, n = rng.int(0, org.slotCapacity); k < n; k++) {
          const statuses = isPast
            ? (['COMPLETED', 'COMPLETED', 'COMPLETED', 'COMPLETED', 'PAID', 'CANCELED', 'NEW'] as const)
            : ([
                'NEW',
                'NEW',
                'PENDING_PAYMENT',
                'PENDING_PAYMENT',
                'PAID',
                'PAID',
                'PAID',
                'CANCELED',
              ] as const);
          const status = rng.pick(statuses);
          // Booked an hour to ten days ahead of the slot; a slot still to come was booked some time before now
          // (not all of them a minute ago).
          const lead = start.getTime() - rng.int(60, 10 * 24 * 60) * MINUTE;
          const bookedAt = new Date(lead < this.nowMs ? lead : this.nowMs - rng.int(5, 10 * 24 * 60) * MINUTE);
          const changed = new Date(
            Math.min(this.nowMs, bookedAt.getTime() + rng.int(5, 2 * 24 * 60) * MINUTE),
          );
          const firstName = rng.pick(org.country.female);
          const lastName = rng.pick(org.country.last);
          const paid = status === 'PAID' || status === 'COMPLETED';
          const id = bookings.length + 1;
          bookings.push({
            id,
            token: hex(),
            firstName,
            lastName,
            mobile: `${org.country.dialCode}-${org.country.mobile(rng)}`,
            email: rng.chance(0.5) ? `${ascii(firstName)}.${ascii(lastName)}.b${id}@mail.test` : null,
            age: rng.int(25, 70),
            slotId,
            organizationId: org.id,
            currency: org.country.currency,
            price: org.price,
            status,
            statusChanged: status === 'NEW' ? bookedAt : changed,
            payment: paid
              ? {
                  provider: 'demo',
                  reference: `pay_${hex().slice(0, 14)}`,
                  amount: org.price,
                  currency: org.country.currency,
                  paid_at: changed.toISOString(),
                }
              : {},
            created: bookedAt,
            modified: changed,
          });
        }
      }
    }
    await copyRows(this.database, schema.slots, slots);
    await copyRows(this.database, schema.bookings, bookings);
  }

  // ---- report log, webhooks, derived columns -------------------------------------------------------------

  private async reportLogsAndWebhooks(): Promise<void> {
    const rng = this.rng;
    const downloaders = [
      'admin@demo.test',
      'subadmin@demo.test',
      'distributor@demo.test',
      'orgadmin@demo.test',
      'manager@demo.test',
    ].map((email) => ({
      id: this.demoIds.get(email) ?? 1,
      type: DEMO_ACCOUNTS.find((a) => a.email === email)?.user_type ?? 'ADMIN',
    }));
    const apis = [
      '/api/v1/scan/',
      '/api/v1/device/',
      '/api/v1/cervaical/',
      '/api/v1/orca/',
      '/api/v1/organization/report-generate/',
      '/api/v1/organization/leaderboard/report-generate/',
    ];
    const logs: Insert<typeof schema.reportLogs>[] = [];
    for (let i = 0; i < 80; i++) {
      const who = rng.pick(downloaders);
      const api = rng.pick(apis);
      const created = this.between(this.nowMs - 120 * DAY, this.nowMs - MINUTE);
      const end = isoDate(new Date(created.getTime() - DAY));
      const start = isoDate(new Date(created.getTime() - 31 * DAY));
      const qp: Record<string, unknown> = api.includes('report-generate')
        ? {
            report_start_date_1: `${start} 00:00:00`,
            report_end_date_1: `${end} 23:59:59`,
            limit: '200',
            page: '1',
            report_log: 'true',
          }
        : {
            date_time_after: start,
            date_time_before: end,
            limit: '200',
            page: '1',
            report_log: 'true',
            format: 'csv',
          };
      logs.push({
        id: i + 1,
        api,
        apiQp: qp,
        userAgent: rng.pick(USER_AGENTS),
        requestedMethod: 'GET',
        userId: who.id,
        userType: who.type,
        created,
      });
    }
    logs.sort((a, b) => (a.created?.getTime() ?? 0) - (b.created?.getTime() ?? 0));
    logs.forEach((l, i) => (l.id = i + 1));
    await copyRows(this.database, schema.reportLogs, logs);

    const deliveries: Insert<typeof schema.webhookDeliveries>[] = [];
    for (const [organizationId, scanIds] of this.webhookScans) {
      const org = at(this.orgs, organizationId - 1);
      for (const scanId of scanIds) {
        const ok = rng.chance(0.85);
        const created = this.between(this.nowMs - 30 * DAY, this.nowMs - MINUTE);
        deliveries.push({
          id: deliveries.length + 1,
          organizationId,
          scanId,
          url: org.webhookUrl ?? '',
          status: ok ? 'delivered' : 'failed',
          attempts: ok ? 1 : 5,
          lastStatusCode: ok ? 200 : 503,
          lastError: ok ? null : 'Service Unavailable',
          created,
          deliveredAt: ok ? new Date(created.getTime() + 2000) : null,
          // Timings of the last attempt (issue 27), from the scan id so the random sequence stays as it was.
          lastAttemptAt: new Date(created.getTime() + (ok ? 1000 : 26_000_000)),
          durationMs: ok ? 120 + ((scanId * 37) % 400) : 10_000,
        });
      }
    }
    await copyRows(this.database, schema.webhookDeliveries, deliveries);
  }

  /** Last sync = the newest upload, for devices and organizations. */
  private async lastSyncDates(): Promise<void> {
    await this.database.exec(`
      UPDATE devices d SET last_sync_date = s.last
        FROM (SELECT device_serial_number, max(created) AS last FROM scans GROUP BY device_serial_number) s
        WHERE s.device_serial_number = d.serial_number;
      UPDATE organizations o SET last_sync_date = s.last
        FROM (SELECT organization_id, max(created) AS last FROM scans WHERE organization_id IS NOT NULL GROUP BY organization_id) s
        WHERE s.organization_id = o.id;
    `);
    this.log(`patients ${this.patientCount}, devices ${this.devices.length}, users ${this.users.length}`);
  }

  /** Drops the secondary indexes of big tables before a bulk load; returns the statements that rebuild them. */
  private async dropIndexes(tables: readonly string[]): Promise<string[]> {
    const rows = await this.database.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [tables],
    );
    for (const r of rows) await this.database.exec(`DROP INDEX "${r.indexname}"`);
    this.log(`dropped ${rows.length} indexes for the bulk load`);
    return rows.map((r) => r.indexdef);
  }
}
