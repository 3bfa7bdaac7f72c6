// Firmware row → API shape (part 3 §3: id, version, path, created; with the download url, checksum and size).
import { firmwareDownloadUrl, type TFirmware } from '@sc/shared/firmware';
import type { FirmwareRow } from './firmware.queries.ts';

export function presentFirmware(row: FirmwareRow): TFirmware {
  return {
    id: row.id,
    version: row.version,
    path: row.path,
    url: firmwareDownloadUrl(row.id),
    checksum: row.checksum,
    size: row.size,
    created: row.created.toISOString(),
  };
}
