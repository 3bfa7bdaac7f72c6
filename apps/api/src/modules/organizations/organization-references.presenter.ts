// Reference row → API shape (part 1 §3: id, name, is_active, organization).
import type { TReference } from '@sc/shared/references';
import type { ReferenceRow } from './organization-references.queries.ts';

export function presentReference(row: ReferenceRow): TReference {
  return {
    id: row.id,
    name: row.name,
    is_active: row.isActive,
    organization: row.organizationId,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}
