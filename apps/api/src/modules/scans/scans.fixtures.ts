// Scan uploads for tests: the minimum a device sends, plus whatever the test overrides.
import type { CreateScanInput } from './scans.service.ts';

let seq = 0;

export function scanInput(overrides: Partial<CreateScanInput> = {}): CreateScanInput {
  seq++;
  return {
    deviceSerialNumber: `IBE-${process.pid}-${seq}`,
    localDbId: `local-${seq}`,
    dateTime: new Date('2026-03-01T10:00:00.000Z'),
    scanType: 'SCAN',
    leftBreastFinding: [],
    rightBreastFinding: [],
    ...overrides,
  };
}
