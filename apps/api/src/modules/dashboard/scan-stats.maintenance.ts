// Bulk loads (the demo at --scale N) may switch off the statistics triggers on scans and rebuild the
// aggregates once at the end: one group-by over the table instead of aggregating every COPY batch.
// Everything else keeps the triggers on; they are what keeps scan_stats_* exact (migration 0005).
import type { Database } from '../../db/client.ts';

const TRIGGERS = [
  'scan_stats_insert',
  'scan_stats_update',
  'scan_stats_delete',
  'scan_stats_truncate',
] as const;

export async function setScanStatsTriggers(
  database: Pick<Database, 'exec'>,
  enabled: boolean,
): Promise<void> {
  const verb = enabled ? 'ENABLE' : 'DISABLE';
  await database.exec(TRIGGERS.map((name) => `ALTER TABLE scans ${verb} TRIGGER ${name};`).join('\n'));
}

/** Recomputes every scan_stats_* table from scans (one statement, under a SHARE lock on scans). */
export async function rebuildScanStats(database: Pick<Database, 'exec'>): Promise<void> {
  await database.exec('SELECT scan_stats_rebuild();');
}
