// Reads of personal data written to the audit log (issue 27): opening a patient, a scan, a cervical or ORCA exam, a
// report or consent file, and every CSV export. One place for what such a row holds (the caller, their address and
// user agent, the record and its organization); the routes that open a record call auditRead once it was found in
// the caller's scope (a 404 writes nothing), and sendCsv calls auditCsvExport once the file has been streamed.
import type { FastifyRequest } from 'fastify';
import { AUDIT_READ, readsEveryAuditRow, type TAuditTargetType } from '@sc/shared/audit';
import type { AuditService } from '../services/audit.service.ts';
import type { ServiceLogger } from '../services/logger.ts';
import type { Actor } from './actor.ts';
import { requestMeta, requireActor } from './authenticate.ts';
import { parsePathId } from './params.ts';

type ReadKind = Exclude<keyof typeof AUDIT_READ, 'csv'>;

/** The record each read names (AUDIT_TARGET_TYPES): a file is named by its path. */
export const READ_TARGET_TYPES: Record<ReadKind, TAuditTargetType> = {
  patient: 'patient',
  scan: 'scan',
  cervicalExam: 'cervical_exam',
  orcaExam: 'orca_exam',
  reportFile: 'file',
  consentFile: 'file',
};

type AuditContext = { services: { audit: AuditService } };

/**
 * Writes the read of one record by the request's caller: one INSERT, unless the same caller (and impersonator) read
 * the same record within AUDIT_READ_FOLD_SECONDS (audit.read folds the burst into its first row). Awaited before
 * the answer goes: a read the log could not record fails (500) rather than disclosing unrecorded.
 */
export async function auditRead(
  ctx: AuditContext,
  request: FastifyRequest,
  read: {
    kind: ReadKind;
    id: number | string;
    organizationId: number | null | undefined;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  const actor = requireActor(request);
  const meta = requestMeta(request);
  await ctx.services.audit.read({
    action: AUDIT_READ[read.kind],
    actorId: actor.id,
    impersonatorId: actor.impersonatorId,
    targetType: READ_TARGET_TYPES[read.kind],
    targetId: read.id,
    organizationId: read.organizationId ?? null,
    ip: meta.ip,
    userAgent: meta.userAgent,
    details: read.details,
  });
}

// A consent form is the consent_forms folder's (uploads, demo scans'), or an exam's 'reports/<orca|cervical>/consent_<id>.pdf'.
const CONSENT_PATH = /^(?:consent_forms\/|reports\/(?:orca|cervical)\/consent_[0-9]+\.pdf$)/;
const REPORT_PATH = /^reports\//;

/**
 * Which audited read serving the stored file at `path` is: a consent form, a report (a scan's, an exam's, a
 * patient's earlier mammogram report), or null for the files that are neither (logos, firmware, assessment files,
 * exam photos and videos).
 */
export function fileReadKind(path: string): 'consentFile' | 'reportFile' | null {
  if (CONSENT_PATH.test(path)) return 'consentFile';
  if (REPORT_PATH.test(path)) return 'reportFile';
  return null;
}

// Query keys that page or shape the answer, not select its rows.
const NOT_FILTERS = new Set(['page', 'limit', 'before', 'after', 'format', 'using_read_db', 'report_log']);

/**
 * The filters of a CSV request: its query without paging and format (a key sent twice keeps both values), and for
 * a body of ids (a map cluster's ids_list) how many it names, not the ids.
 */
export function csvFilters(request: FastifyRequest): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  const params = new URL(request.url, 'http://localhost').searchParams;
  for (const key of new Set(params.keys())) {
    if (NOT_FILTERS.has(key)) continue;
    const values = params.getAll(key);
    filters[key] = values.length === 1 ? values[0] : values;
  }
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (Array.isArray(value)) filters[`${key}_count`] = value.length;
    }
  }
  return filters;
}

/**
 * The organization a CSV's row belongs to (who may read it on the audit screen). A caller of one organization's
 * scope: their own (a filter they send cannot tag the row with another's). A caller who reads every organization
 * (ADMIN, SUB_ADMIN), or one without an organization: the one organization the filters name (the list answered
 * 404 before streaming had it been out of their scope), else none (read by ADMIN and SUB_ADMIN only).
 */
function csvOrganization(filters: Record<string, unknown>, actor: Actor): number | null {
  if (!readsEveryAuditRow(actor.userType) && actor.organizationId !== null) return actor.organizationId;
  for (const key of ['organization', 'organization_id']) {
    const value = filters[key];
    const id = typeof value === 'string' ? parsePathId(value) : undefined;
    if (id !== undefined) return id;
  }
  return null;
}

/**
 * Counts the records of a CSV as its bytes go by (RFC 4180, as csv-stringify and PostgreSQL's COPY write it): a line
 * feed outside quotes ends a record; a quoted cell may hold line feeds, and its doubled quotes toggle twice.
 */
export function csvRecordCounter() {
  let inQuotes = false;
  let records = 0;
  return {
    add(chunk: Buffer): void {
      const end = chunk.length;
      let i = 0;
      while (i < end) {
        if (inQuotes) {
          const close = chunk.indexOf(0x22, i);
          if (close < 0) return;
          inQuotes = false;
          i = close + 1;
          continue;
        }
        const open = chunk.indexOf(0x22, i);
        const stop = open < 0 ? end : open;
        for (let lf = chunk.indexOf(0x0a, i); lf >= 0 && lf < stop; lf = chunk.indexOf(0x0a, lf + 1)) records++;
        if (open < 0) return;
        inQuotes = true;
        i = open + 1;
      }
    },
    /** Records ended so far (the header included). */
    get records(): number {
      return records;
    },
  };
}

/**
 * The row of a CSV export, written once the file has been streamed (its row count is then known, and the log is
 * append-only: a row written before could not be completed). `rows` counts the records after the header;
 * `complete` is false when the download ended before the file did (the client gave up). Never fails the
 * download (its bytes are gone already): a failed write is logged.
 */
export async function auditCsvExport(
  ctx: AuditContext & { services: { log: ServiceLogger } },
  request: FastifyRequest,
  file: { name: string; rows: number; complete: boolean },
): Promise<void> {
  const actor = request.actor;
  if (!actor) return;
  const meta = requestMeta(request);
  const filters = csvFilters(request);
  try {
    await ctx.services.audit.record({
      action: AUDIT_READ.csv,
      actorId: actor.id,
      impersonatorId: actor.impersonatorId,
      organizationId: csvOrganization(filters, actor),
      ip: meta.ip,
      userAgent: meta.userAgent,
      details: {
        report: new URL(request.url, 'http://localhost').pathname,
        file: file.name,
        filters,
        rows: file.rows,
        complete: file.complete,
      },
    });
  } catch (error) {
    ctx.services.log.error({ err: error instanceof Error ? error.message : String(error) }, 'CSV export audit row not written');
  }
}
