// App version row → API shape (part 3 §3 App version).
import type { TAppVersion } from '@sc/shared/app-versions';
import type { AppVersionRow } from './app-versions.queries.ts';

export function presentAppVersion(row: AppVersionRow): TAppVersion {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    tutorial_version: row.tutorialVersion,
    notes: { note: row.notes.note },
    type: row.type,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}
