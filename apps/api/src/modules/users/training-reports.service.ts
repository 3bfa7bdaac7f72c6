// Training and practice report PDFs (part 2 §2.3, §6, §7; issue 7): a user's TRAINING (or PRACTICE) scans with
// their assessment results and totals, printed with the house report layout (services/pdf).
// Who: the roles that open the user dialog, for a user in their scope (else 404, as for a missing id). Whose: a
// Technician, ORG Admin or Distributor (part 2 §6 shows the download for those); any other type, or a user without
// such scans, answers 404 with a detail that says so. Which scans: the user's own, of that type, in organizations
// the caller can see (the scope rule of every list), duplicates left out. Everything that can refuse the request
// runs before the first byte is sent; the rows are then read in batches while the PDF streams.
import type { Readable } from 'node:stream';
import { ROLE_LABELS } from '@sc/shared/roles';
import {
  ASSESSMENT_RESULT_LABELS,
  TRAINING_REPORT_MESSAGES,
  TRAINING_REPORT_ROLES,
  TRAINING_REPORT_SCAN_TYPE,
  TRAINING_REPORT_TARGET_TYPES,
  TRAINING_REPORT_TITLES,
  TRAINING_STATUS_LABELS,
  correctRate,
  scanDisplayId,
  trainingReportFilename,
  type TTrainingReportKind,
} from '@sc/shared/training-reports';
import { ASSESSMENT_RESULTS } from '@sc/shared/constants';
import type { AppContext } from '../../app.ts';
import type { Actor } from '../../http/actor.ts';
import { AUTH_ERRORS } from '../../http/authenticate.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { resolveScope, type Scope } from '../../http/scope.ts';
import { loadBranding } from '../../services/pdf/branding.ts';
import {
  formatCalendarDate,
  formatDateTime,
  formatDateTimeInColumn,
  zoneHeader,
} from '../../services/pdf/format.ts';
import { ReportAborted, ReportDocument, type TableColumn } from '../../services/pdf/report-document.ts';
import * as q from './training-reports.queries.ts';

export type TrainingReportsContext = Pick<AppContext, 'config' | 'database' | 'services' | 'now'>;

export type TrainingReportRequest = {
  /** The request's path and query, for the report log. */
  path: string;
  query: Record<string, unknown>;
  userAgent: string | null;
  /** The zone dates are printed in (the `Timezone` header, Asia/Kolkata when absent or unknown). */
  timezone: string;
};

export type TrainingReport = { filename: string; stream: Readable };

/** Scans read per query while the PDF streams. */
export const REPORT_SCAN_BATCH = 500;

const yesNo = (value: boolean | null): string => (value === null ? '—' : value ? 'Yes' : 'No');

/** GET user/training/report/pdf/{id}/ and user/practice/report/pdf/{id}/ */
export async function openTrainingReport(
  ctx: TrainingReportsContext,
  actor: Actor,
  kind: TTrainingReportKind,
  userId: number,
  request: TrainingReportRequest,
): Promise<TrainingReport> {
  if (!TRAINING_REPORT_ROLES.includes(actor.userType)) throw new AppError('forbidden', AUTH_ERRORS.forbidden);
  const { db } = ctx.database;
  const scope = await resolveScope(db, actor);
  const target = await q.findReportTarget(db, scope, userId);
  if (!target) throw notFound();
  if (!TRAINING_REPORT_TARGET_TYPES.includes(target.userType))
    throw notFound(TRAINING_REPORT_MESSAGES.notForUserType);
  const scanType = TRAINING_REPORT_SCAN_TYPE[kind];
  const totals = await q.summarizeReportScans(db, scope, target.id, scanType);
  if (totals.total === 0) throw notFound(TRAINING_REPORT_MESSAGES.noScans[kind]);

  const branding = target.organization
    ? await loadBranding(ctx.services.storage, target.organization, ctx.services.log)
    : null;
  const generatedAt = ctx.now();
  await q.insertReportLog(db, {
    api: request.path,
    apiQp: request.query,
    userAgent: request.userAgent,
    userId: actor.id,
    userType: actor.userType,
    at: generatedAt,
  });

  const name = `${target.firstName} ${target.lastName}`.trim() || target.username;
  const report = ReportDocument.create({
    title: TRAINING_REPORT_TITLES[kind],
    subject: name,
    branding,
    timezone: request.timezone,
    generatedAt,
    keywords: `${kind} report, user ${target.id}`,
  });
  // The response is already under way when the rows are read: a failure can only cut it short (and is logged).
  writeReport(ctx, report, { kind, scope, target, name, totals, timezone: request.timezone }).catch(
    (error: unknown) => {
      if (error instanceof ReportAborted) return;
      const err = error instanceof Error ? error : new Error(String(error));
      ctx.services.log.error({ err: err.message, userId: target.id, kind }, 'training report stopped');
      report.fail(err);
    },
  );
  return { filename: trainingReportFilename(kind, target.username), stream: report.stream };
}

type ReportFacts = {
  kind: TTrainingReportKind;
  scope: Scope;
  target: q.ReportTarget;
  name: string;
  totals: q.ReportTotals;
  timezone: string;
};

async function writeReport(
  ctx: TrainingReportsContext,
  report: ReportDocument,
  facts: ReportFacts,
): Promise<void> {
  const { kind, scope, target, totals, timezone } = facts;
  const at = (d: Date | null) => (d ? formatDateTime(d, timezone) : null);

  report.section(ROLE_LABELS[target.userType]);
  report.fields([
    { label: 'Name', value: facts.name },
    { label: 'Username', value: target.username },
    { label: 'Mobile', value: target.mobile },
    { label: 'E-mail', value: target.email },
    { label: 'User type', value: ROLE_LABELS[target.userType] },
    { label: 'Training status', value: TRAINING_STATUS_LABELS[target.ibeTrainingStatus] },
    { label: 'Certificate issued', value: formatCalendarDate(target.certificateIssueDate) },
    { label: 'Certificate expires', value: formatCalendarDate(target.certificateExpiryDate) },
  ]);

  const org = target.organization;
  report.section('Organization');
  report.fields(
    org
      ? [
          { label: 'Name', value: org.name },
          { label: 'Country', value: org.country },
          {
            label: 'Address',
            value: [org.address1, org.address2, org.address3, org.state, org.zipcode]
              .map((p) => p?.trim())
              .filter(Boolean)
              .join(', '),
          },
        ]
      : [{ label: 'Name', value: 'Not assigned to an organization' }],
  );

  report.section('Period');
  report.fields([
    { label: 'First scan', value: at(totals.first) },
    { label: 'Last scan', value: at(totals.last) },
    { label: `${capitalize(kind)} scans`, value: totals.total },
    { label: 'Times shown in', value: timezone },
  ]);

  const columns: TableColumn<q.ReportScanRow>[] = [
    { header: 'Scan ID', width: 0.9, value: (s) => scanDisplayId(TRAINING_REPORT_SCAN_TYPE[kind], s.id) },
    // The zone in the header: the offset beside every row's time would not fit the column.
    {
      header: zoneHeader('Date and time', timezone),
      width: 1.85,
      value: (s) => formatDateTimeInColumn(s.dateTime, timezone),
    },
    {
      header: kind === 'practice' ? 'Practice subject' : 'Patient',
      width: 1.65,
      value: (s) => `${s.patientFirstName ?? ''} ${s.patientLastName ?? ''}`.trim() || '—',
    },
    { header: 'Device', width: 1.2, value: (s) => s.deviceSerialNumber ?? '—' },
    { header: 'Result', width: 1.2, value: (s) => ASSESSMENT_RESULT_LABELS[s.assessmentResult] },
    { header: 'Approved', width: 0.95, align: 'center', value: (s) => yesNo(s.assessmentApproved) },
    { header: 'Verified', width: 0.85, align: 'center', value: (s) => yesNo(s.practiceVerified) },
  ];
  report.section(`${capitalize(kind)} scans`);
  await report.table(columns, scanBatches(ctx, scope, target.id, kind));

  report.section('Totals', 150);
  const share = (n: number) => `${((n / totals.total) * 100).toFixed(1)} %`;
  const resultRows = ASSESSMENT_RESULTS.map((result) => ({
    label: ASSESSMENT_RESULT_LABELS[result],
    count: totals.byResult[result],
  }));
  await report.table(
    [
      { header: 'Result', width: 3, value: (r) => r.label },
      { header: 'Scans', width: 1, align: 'right', value: (r) => String(r.count) },
      { header: 'Share', width: 1, align: 'right', value: (r) => share(r.count) },
    ],
    [...resultRows, { label: 'All scans', count: totals.total }],
    { emphasis: (r) => r.label === 'All scans' },
  );
  const { CORRECT: correct, INCORRECT: incorrect } = totals.byResult;
  const rate = correctRate(correct, incorrect);
  report.fields([
    {
      label: 'Correct rate',
      value:
        rate === null
          ? 'No correct or incorrect result yet'
          : `${rate.toFixed(1)} % (${correct} of ${correct + incorrect})`,
    },
    { label: 'Approved', value: `${totals.approved} of ${totals.total}` },
    { label: 'Verified', value: `${totals.verified} of ${totals.total}` },
  ]);
  report.paragraph(
    'Correct rate: correct ÷ (correct + incorrect); bypassed and unassessed scans have no verdict and count in neither. ' +
      'Scans uploaded again (duplicates) are listed once.' +
      (scope.kind === 'all' ? '' : ' Only scans of organizations you have access to are listed.'),
    { muted: true },
  );
  report.end();
}

/** The user's scans of the report's type, oldest first, read REPORT_SCAN_BATCH at a time. */
async function* scanBatches(
  ctx: TrainingReportsContext,
  scope: Scope,
  technicianId: number,
  kind: TTrainingReportKind,
): AsyncGenerator<q.ReportScanRow> {
  let after: q.ScanCursor | null = null;
  for (;;) {
    const rows = await q.listReportScanBatch(
      ctx.database.db,
      scope,
      technicianId,
      TRAINING_REPORT_SCAN_TYPE[kind],
      after,
      REPORT_SCAN_BATCH,
    );
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < REPORT_SCAN_BATCH) return;
    after = { time: last.cursorTime, id: last.id };
  }
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
