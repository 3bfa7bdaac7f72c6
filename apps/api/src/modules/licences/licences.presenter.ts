// Licence and licence log rows → API shape (part 3 §3).
import type { TLicence, TLicenceLog } from '@sc/shared/licences';
import type { LicenceLogRow, LicenceRow } from './licences.queries.ts';

export function presentLicence(row: LicenceRow): TLicence {
  return {
    id: row.id,
    organization: { id: row.organizationId, name: row.organizationName },
    license_code: row.licenseCode,
    pin: row.pin,
    application: row.application,
    count: row.count,
    total_license_count: row.totalLicenseCount,
    is_active: row.isActive,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

export function presentLicenceLog(row: LicenceLogRow): TLicenceLog {
  return {
    id: row.id,
    license_id: row.licenseId,
    before_count: row.beforeCount,
    after_count: row.afterCount,
    renewal_datetime: row.renewalDatetime.toISOString(),
    renewed_by: row.renewedBy,
    renewed_by_name: row.renewedByName,
    created: row.created.toISOString(),
  };
}
