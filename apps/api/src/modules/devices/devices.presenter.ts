// Device and link rows → API shape (part 2 §3), with the fleet-health fields computed here: whether the firmware
// the device reports is older than the latest on record, and whether it has been silent.
import { SILENT_AFTER_DAYS, isVersionOutdated, type TDevice, type TDeviceLink } from '@sc/shared/devices';
import { csvDateTime } from '../../http/csv-stream.ts';
import type { DeviceRow, LinkRow } from './devices.queries.ts';

const DAY_MS = 86_400_000;

export type FleetFacts = { latestFirmware: string | null; now: Date };

/** The instant before which a device's last activity makes it silent. */
export const silentCutoff = (now: Date): Date => new Date(now.getTime() - SILENT_AFTER_DAYS * DAY_MS);

export function presentDevice(row: DeviceRow, facts: FleetFacts): TDevice {
  const lastActivity = row.lastSyncDate ?? row.created;
  return {
    id: row.id,
    serial_number: row.serialNumber,
    name: row.name,
    scan_count: row.scanCount,
    last_sync_date: row.lastSyncDate?.toISOString() ?? null,
    created: row.created.toISOString(),
    organization: row.organizationId,
    organization_name: row.organizationId === null ? null : row.organizationName,
    organization_device_id: row.linkId,
    hardware_version: row.hardwareVersion,
    software_version: row.softwareVersion,
    latest_firmware: facts.latestFirmware,
    is_firmware_outdated: isVersionOutdated(row.softwareVersion, facts.latestFirmware),
    is_silent: lastActivity < silentCutoff(facts.now),
  };
}

type LinkFacts = Pick<LinkRow, 'id' | 'organizationId' | 'organizationName' | 'isActive' | 'created' | 'endedAt'>;

/** A link with its device (`device_data`): the device columns are those of `device`, read with the link. */
export function presentLink(link: LinkFacts, device: DeviceRow): TDeviceLink {
  return {
    id: link.id,
    device_data: {
      id: device.id,
      serial_number: device.serialNumber,
      scan_count: device.scanCount,
      last_sync_date: device.lastSyncDate?.toISOString() ?? null,
      created: device.created.toISOString(),
      organization: device.organizationId,
    },
    organization: link.organizationId,
    organization_name: link.organizationId === null ? null : link.organizationName,
    is_active: link.isActive,
    created: link.created.toISOString(),
    ended_at: link.endedAt?.toISOString() ?? null,
  };
}

/** A device row of the list as its active link (organization/device/ lists only devices that have one). */
export function presentActiveLink(row: DeviceRow): TDeviceLink {
  return presentLink(
    {
      id: row.linkId ?? 0,
      organizationId: row.organizationId,
      organizationName: row.organizationName,
      isActive: true,
      created: row.linkCreated ?? row.created,
      endedAt: null,
    },
    row,
  );
}

/** One CSV record, in DEVICE_CSV_COLUMNS order; the times in `zone` (csvDateTime). */
export function deviceCsvRecord(device: TDevice, zone: string): (string | number)[] {
  return [
    device.serial_number,
    csvDateTime(device.created, zone),
    device.organization_name ?? '',
    device.scan_count,
    csvDateTime(device.last_sync_date, zone),
    device.software_version ?? '',
    device.is_firmware_outdated === null ? '' : device.is_firmware_outdated ? 'Yes' : 'No',
    device.is_silent ? 'Yes' : 'No',
  ];
}
