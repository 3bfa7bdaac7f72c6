import { describe, expect, it } from 'vitest';
import {
  SCAN_IDS_BODY_MAX,
  clusterListTitle,
  SCAN_CSV_COLUMNS,
  SCAN_POINT_BYTES,
  ZScanIdsBody,
  ZScanListQuery,
  ZScanTransferInput,
  canDeleteDuplicate,
  canListScans,
  canSeeDuplicates,
  csvNotes,
  decodeScanPoints,
  duplicatesParentId,
  encodeScanPoints,
  parseScanIdLabel,
  scanIdLabel,
  scanReview,
  scanRowActions,
  showsOrganizationColumn,
} from './scans.ts';

const row = {
  scan_type: 'SCAN' as const,
  is_replay_available: false,
  scan_files_path: { reports: [], assessment_files: [], consent_form: [] },
  parent_scan_id: null,
  duplicates_count: 0,
};

describe('scan list contract', () => {
  it('prefixes ids by type and reads them back', () => {
    expect(scanIdLabel('PRACTICE', 5)).toBe('P-5');
    expect(scanIdLabel('TRAINING', 5)).toBe('T-5');
    expect(scanIdLabel('SCAN', 5)).toBe('S-5');
    expect(scanIdLabel('PRE_TRAINING', 5)).toBe('PT-5');
    expect(parseScanIdLabel('PT-7')).toBe(7);
    expect(parseScanIdLabel('s12')).toBe(12);
    expect(parseScanIdLabel('42')).toBe(42);
    expect(parseScanIdLabel('ann')).toBeNull();
    expect(parseScanIdLabel('X-4')).toBeNull();
    expect(parseScanIdLabel('99999999999')).toBeNull();
  });

  it('role rules', () => {
    expect(canListScans('TECHNICIAN')).toBe(false);
    expect(canListScans('CERVAICAL_REVIEWER')).toBe(false);
    expect(canListScans('ORG_ADMIN')).toBe(true);
    expect(canSeeDuplicates('SUB_ADMIN')).toBe(true);
    expect(canSeeDuplicates('DISTRIBUTOR_ADMIN')).toBe(false);
    expect(canDeleteDuplicate('ADMIN')).toBe(true);
    expect(canDeleteDuplicate('MANAGER')).toBe(false);
    expect(showsOrganizationColumn('MANAGER', false)).toBe(true);
    expect(showsOrganizationColumn('MANAGER', true)).toBe(false);
    expect(showsOrganizationColumn('ORG_ADMIN', false)).toBe(false);
  });

  it('row actions follow the files, the type and the role', () => {
    expect(scanRowActions('ORG_ADMIN', row)).toEqual(['details', 'transfer']);
    const child = {
      ...row,
      parent_scan_id: 3,
      is_replay_available: true,
      scan_files_path: { ...row.scan_files_path, reports: [{ path: 'r' }] },
    };
    expect(scanRowActions('ADMIN', child)).toEqual([
      'details',
      'replay',
      'report',
      'duplicates',
      'delete',
      'transfer',
    ]);
    expect(scanRowActions('MANAGER', child)).toEqual(['details', 'replay', 'report', 'transfer']);
    const training = {
      ...row,
      scan_type: 'TRAINING' as const,
      scan_files_path: { ...row.scan_files_path, assessment_files: [{ path: 'a' }] },
    };
    expect(scanRowActions('ORG_ADMIN', training)).toContain('assessment');
    expect(scanRowActions('ADMIN', { ...row, duplicates_count: 2 })).toContain('duplicates');
    expect(duplicatesParentId({ id: 9, parent_scan_id: 3 })).toBe(3);
    expect(duplicatesParentId({ id: 9, parent_scan_id: null })).toBe(9);
  });

  it('review label', () => {
    const base = { scan_type: 'PRACTICE' as const, assessment_approved: null, training_scan_observation: {} };
    expect(scanReview({ ...base, scan_type: 'SCAN' })).toBeNull();
    expect(scanReview(base)).toBe('Unreviewed');
    expect(scanReview({ ...base, assessment_approved: true })).toBe('Unreviewed');
    expect(
      scanReview({
        ...base,
        assessment_approved: true,
        training_scan_observation: { practice_verified: true },
      }),
    ).toBe('Correct');
    expect(
      scanReview({
        ...base,
        assessment_approved: false,
        training_scan_observation: { practice_verified: true },
      }),
    ).toBe('Incorrect');
  });

  it('map points round-trip as 12-byte records', () => {
    const bytes = encodeScanPoints([
      { id: 1, latitude: 18.52, longitude: 73.85 },
      { id: 2_000_000, latitude: -33.9, longitude: -151.2 },
    ]);
    expect(bytes.byteLength).toBe(2 * SCAN_POINT_BYTES);
    const p = decodeScanPoints(bytes.buffer as ArrayBuffer);
    expect(p.count).toBe(2);
    expect([...p.ids]).toEqual([1, 2_000_000]);
    expect(p.lat[0]).toBeCloseTo(18.52, 4);
    expect(p.lng[1]).toBeCloseTo(-151.2, 4);
  });

  it('list query: filters, ids, age range and bad values', () => {
    const ok = ZScanListQuery.parse({
      ids: '3, 4,4',
      age_min: '10',
      age_max: '40',
      survivor: 'true',
      device: 'IBE1',
    });
    expect(ok.ids).toEqual([3, 4]);
    expect(ok.survivor).toBe(true);
    expect(ZScanListQuery.safeParse({ age_min: '50', age_max: '40' }).error?.issues[0]?.path).toEqual([
      'age_min',
    ]);
    expect(ZScanListQuery.safeParse({ ids: '1,x' }).success).toBe(false);
    expect(
      ZScanListQuery.safeParse({ ids: Array.from({ length: 201 }, (_, i) => i + 1).join(',') }).success,
    ).toBe(false);
    expect(ZScanListQuery.safeParse({ scan_type: 'XRAY' }).success).toBe(false);
    expect(ZScanListQuery.safeParse({ user_type: 'ADMIN' }).success).toBe(false);
    expect(ZScanListQuery.safeParse({ age_max: '121' }).success).toBe(false);
    expect(ZScanIdsBody.safeParse({ ids_list: [] }).success).toBe(false);
    expect(ZScanIdsBody.safeParse({ ids_list: [1, 2] }).success).toBe(true);
    expect(ZScanTransferInput.safeParse({ organization_id: 1 }).success).toBe(false);
  });

  it('CSV columns and notes', () => {
    expect(SCAN_CSV_COLUMNS).toContain('Is Positive');
    expect(csvNotes('a, b,c\nd')).toBe('a  b c d');
    expect(csvNotes(null)).toBe('');
  });
});

describe('clusterListTitle', () => {
  it('is Scans when the list holds the whole marker, and says which part it holds of a larger cluster', () => {
    expect(clusterListTitle(1, 1)).toBe('Scans');
    expect(clusterListTitle(85_797, 85_797)).toBe('Scans');
    expect(clusterListTitle(SCAN_IDS_BODY_MAX, 329_112)).toBe(
      'Scans: the first 100,000 of 329,112 (zoom in to list the others)',
    );
  });
});
