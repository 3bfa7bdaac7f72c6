// Devices (part 2 §2.4, §3, §4, §5, §6, §7 Devices, §8) and the fleet-health additions (issue 7): the contracts of
// `device/` and `organization/device/`, the role table of the device actions, the messages and the version order
// that says whether a device runs firmware older than the latest.
import { z } from 'zod';
import type { TUserType } from './roles.ts';
import { ZBoolParam, ZListQuery, ZPeriodQuery, idField, idParam } from './list.ts';
import { MESSAGES, textField } from './validation.ts';

export const SERIAL_NUMBER_MAX = 64;
/** A device is silent when it has not uploaded (or, never having uploaded, was registered) this many days ago. */
export const SILENT_AFTER_DAYS = 30;
export const DEVICE_CSV_FILENAME = 'device_details.csv';
/** Rows read per query while the CSV streams (the original console paged 200 at a time, part 2 §9). */
export const DEVICE_CSV_BATCH = 500;

/** Part 2 §8 texts, used verbatim; the rest are ours (the spec shows none). */
export const DEVICE_MESSAGES = {
  created: 'Device created Successfully',
  updated: 'Device updated Successfully',
  // The Link or Transfer dialog is one dialog with one success text (part 2 §8 names no transfer text).
  linked: 'Device Link Successfully',
  unassigned: 'Device unassigned Successfully',
  linkDeleted: 'Device link deleted Successfully',
  duplicateSerial: 'device with this serial number already exists.',
  serialText: 'Only letters, numbers, spaces and the characters . _ - / # are allowed.',
  serialTooLong: `Ensure this field has no more than ${SERIAL_NUMBER_MAX} characters.`,
  alreadyLinked: 'This device is already linked to an organization.',
  notLinked: 'This device is not linked to an organization.',
  sameOrganization: 'The device is already linked to this organization.',
  linkEnded: 'This link has ended: the device has a newer one.',
  unassignConfirm: (serial: string) => `Are you sure you want to unassign ${serial}?`,
  emptyNoun: 'devices',
} as const;

const INTEGER_MESSAGE = 'A valid integer is required.';

/** Only a parsed id or null, never the raw input: see `inputText`. */
export const invalidPk = (value: number | null) => `Invalid pk "${value}" - object does not exist.`;

// ---- Who may do what (part 2 §6; decisions in docs/decisions.md "Devices: roles") ----------------------------------
// The API guard and the console's buttons read this one table.
export const DEVICE_ACTIONS = {
  /** The device list and a device's details: every console role with devices in its scope. */
  'device.read': ['ADMIN', 'SUB_ADMIN', 'DISTRIBUTOR_ADMIN', 'MANAGER', 'ORG_ADMIN'],
  /** Create: the roles that see unlinked devices and may link them, so a new device never drops out of sight. */
  'device.create': ['ADMIN', 'SUB_ADMIN', 'MANAGER'],
  /** "In the device dialog the edit button is enabled only for ADMIN." */
  'device.edit': ['ADMIN'],
  'device.link': ['SUB_ADMIN', 'MANAGER', 'ADMIN'],
  'device.unassign': ['SUB_ADMIN', 'MANAGER', 'ADMIN'],
  'device.transfer': ['SUB_ADMIN', 'MANAGER', 'ADMIN', 'DISTRIBUTOR_ADMIN'],
  /** Deleting a link ends it like an unassign (history stays): the same roles. */
  'device.deleteLink': ['SUB_ADMIN', 'MANAGER', 'ADMIN'],
  'device.csv': ['SUB_ADMIN', 'ADMIN'],
} as const satisfies Record<string, readonly TUserType[]>;
export type TDeviceAction = keyof typeof DEVICE_ACTIONS;

export const canDevice = (role: TUserType, action: TDeviceAction): boolean =>
  (DEVICE_ACTIONS[action] as readonly TUserType[]).includes(role);

/** Roles that may call PATCH organization/device/{id}/ at all (which of link, unassign, transfer depends on the body). */
export const DEVICE_LINK_CHANGE_ROLES: readonly TUserType[] = [
  ...new Set<TUserType>([...DEVICE_ACTIONS['device.link'], ...DEVICE_ACTIONS['device.unassign'], ...DEVICE_ACTIONS['device.transfer']]),
];

/** Unlinked devices belong to no organization: only roles that see everything or may link them see them. */
export const seesUnlinkedDevices = (role: TUserType): boolean =>
  role === 'ADMIN' || role === 'SUB_ADMIN' || canDevice(role, 'device.link');

export type TDeviceRowAction = 'details' | 'link' | 'unassign' | 'transfer';

/**
 * The row actions of the device list (part 2 §2.4, §6): Details always; Link Organization on an unlinked device in
 * the global view; Unassign and Transfer on a linked one.
 */
export function deviceRowActions(
  role: TUserType,
  device: { organization: number | null },
  where: { embedded: boolean },
): TDeviceRowAction[] {
  const actions: TDeviceRowAction[] = ['details'];
  const isLinked = device.organization !== null;
  if (!isLinked && !where.embedded && canDevice(role, 'device.link')) actions.push('link');
  if (isLinked && canDevice(role, 'device.unassign')) actions.push('unassign');
  if (isLinked && canDevice(role, 'device.transfer')) actions.push('transfer');
  return actions;
}

// ---- Firmware versions ------------------------------------------------------------------------------------------

/** 'v2.14', '2.14.0', 'V3' → [2, 14, 0] / [3]; null when the text is not a dotted number. */
export function parseVersion(raw: string | null | undefined): number[] | null {
  const match = raw?.trim().match(/^[vV]?(\d{1,9}(?:\.\d{1,9}){0,3})$/);
  if (!match?.[1]) return null;
  return match[1].split('.').map(Number);
}

/** Numeric order of dotted versions (v2.9 < v2.14; 2.14 = 2.14.0). Unparseable versions sort first. */
export function compareVersions(a: string | null | undefined, b: string | null | undefined): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** The highest of `versions` in version order, or null. */
export function latestVersion(versions: readonly string[]): string | null {
  let best: string | null = null;
  for (const v of versions) if (parseVersion(v) && (best === null || compareVersions(v, best) > 0)) best = v;
  return best;
}

/** True when the device's version is older than the latest firmware; null when either is unknown. */
export function isVersionOutdated(version: string | null | undefined, latest: string | null | undefined): boolean | null {
  if (!parseVersion(version) || !parseVersion(latest)) return null;
  return compareVersions(version, latest) < 0;
}

// ---- Requests -----------------------------------------------------------------------------------------------------

/** Required, one line, letters, digits, spaces and . _ - / # (part 2 §5: serial_number required). */
export const ZSerialNumber = textField({ error: MESSAGES.required })
  .trim()
  .min(1, { error: MESSAGES.required, abort: true })
  .max(SERIAL_NUMBER_MAX, DEVICE_MESSAGES.serialTooLong)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._\-/#]*$/u, DEVICE_MESSAGES.serialText);

/** POST device/ and PUT device/{id}/. */
export const ZDeviceInput = z.object({ serial_number: ZSerialNumber });
export type TDeviceInput = z.infer<typeof ZDeviceInput>;

const pk = idField(INTEGER_MESSAGE, MESSAGES.required);

/** POST organization/device/: link an unlinked device (part 2 §5: organization required). */
export const ZDeviceLinkInput = z.object({ organization: pk, device: pk });
export type TDeviceLinkInput = z.infer<typeof ZDeviceLinkInput>;

/** PATCH organization/device/{id}/: `null` unassigns; another organization transfers (or links an unassigned link). */
export const ZDeviceLinkPatch = z.object({
  organization: z.union([pk, z.null()], {
    error: (issue) => (issue.input === undefined ? MESSAGES.required : INTEGER_MESSAGE),
  }),
});
export type TDeviceLinkPatch = z.infer<typeof ZDeviceLinkPatch>;

export const DEVICE_ORDERING_FIELDS = [
  'id',
  'serial_number',
  'created',
  'last_sync_date',
  'scan_count',
  'organization_name',
  'software_version',
] as const;
export const DEVICE_DEFAULT_ORDERING = '-created';

/** GET device/ and GET organization/device/ (part 2 §7): the period filters read the device's creation date. */
export const ZDeviceListQuery = ZListQuery.extend(ZPeriodQuery.shape).extend({
  organization_id: idParam('organization_id').optional(),
  linked: ZBoolParam.optional(),
  unlinked: ZBoolParam.optional(),
  /** Lookup: the device with exactly this serial number (any case). */
  serial_number: textField().trim().max(SERIAL_NUMBER_MAX, DEVICE_MESSAGES.serialTooLong).optional(),
  /** Fleet health: true = no upload for more than SILENT_AFTER_DAYS days; false = uploaded within them. */
  silent: ZBoolParam.optional(),
  /** `csv` streams device_details.csv with the same filters (SUB_ADMIN, ADMIN). */
  format: z.enum(['json', 'csv'], { error: 'Select a valid choice: json, csv.' }).optional(),
});
export type TDeviceListQuery = z.infer<typeof ZDeviceListQuery>;

/** GET organization/device/{id}/?organization_id= */
export const ZDeviceLinkGetQuery = z.object({
  organization_id: idParam('organization_id').optional(),
  using_read_db: ZBoolParam.optional(),
});

// ---- Responses ----------------------------------------------------------------------------------------------------

/** Part 2 §3 Device, plus the fleet-health fields. */
export const ZDevice = z.object({
  id: z.number(),
  serial_number: z.string(),
  name: z.string().nullable(),
  scan_count: z.number(),
  last_sync_date: z.string().nullable(),
  created: z.string(),
  organization: z.number().nullable(),
  organization_name: z.string().nullable(),
  organization_device_id: z.number().nullable(),
  hardware_version: z.string().nullable(),
  /** The firmware the device last reported (software_version of the device app). */
  software_version: z.string().nullable(),
  latest_firmware: z.string().nullable(),
  /** Older than latest_firmware; null when either version is unknown. */
  is_firmware_outdated: z.boolean().nullable(),
  /** No upload for more than SILENT_AFTER_DAYS days (or never, and registered before that). */
  is_silent: z.boolean(),
});
export type TDevice = z.infer<typeof ZDevice>;

export const ZDeviceSaved = ZDevice.extend({ detail: z.string() });
export type TDeviceSaved = z.infer<typeof ZDeviceSaved>;

/** Part 2 §3 Organization-device link. */
export const ZDeviceLink = z.object({
  id: z.number(),
  device_data: z.object({
    id: z.number(),
    serial_number: z.string(),
    scan_count: z.number(),
    last_sync_date: z.string().nullable(),
    created: z.string(),
    organization: z.number().nullable(),
  }),
  organization: z.number().nullable(),
  organization_name: z.string().nullable(),
  is_active: z.boolean(),
  created: z.string(),
  ended_at: z.string().nullable(),
});
export type TDeviceLink = z.infer<typeof ZDeviceLink>;

export const ZDeviceLinkSaved = ZDeviceLink.extend({ detail: z.string() });
export type TDeviceLinkSaved = z.infer<typeof ZDeviceLinkSaved>;

// ---- CSV (part 2 §7, §9) ------------------------------------------------------------------------------------------

/** The spec's five columns, then the fleet-health ones. */
export const DEVICE_CSV_COLUMNS = [
  'Device Number',
  'Created',
  'Organization name',
  'scan count',
  'Last sync at',
  'Firmware version',
  'Firmware out of date',
  `Silent over ${SILENT_AFTER_DAYS} days`,
] as const;
/** The device CSV's columns of times, whose headers name the zone (csvHeader). */
export const DEVICE_CSV_TIME_COLUMNS: readonly string[] = ['Created', 'Last sync at'];
