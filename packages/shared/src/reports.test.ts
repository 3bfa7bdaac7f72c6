import { describe, expect, it } from 'vitest';
import {
  REPORT_MESSAGES,
  ZReportQuery,
  checkReportForm,
  completedChoices,
  periodOfRange,
  periodRange,
  periodTypesFor,
  previousPeriod,
  reportCsvColumns,
  reportCsvRecord,
  reportFigures,
  reportFileName,
  reportOrganizationName,
  reportQueryFor,
  reportRangeLabel,
  reportTechnicianName,
  reportYears,
} from './reports.ts';

describe('report periods', () => {
  it('offers the years from the current one down to 2018', () => {
    const years = reportYears('2026-11-24');
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(2018);
    expect(years).toHaveLength(9);
  });

  it('gives each period its first and last day (leap February, Q1 to Q4, halves, the year)', () => {
    expect(periodRange({ year: 2024, type: 'MONTHLY', index: 1 })).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(periodRange({ year: 2026, type: 'QUARTERLY', index: 3 })).toEqual({ start: '2026-10-01', end: '2026-12-31' });
    expect(periodRange({ year: 2026, type: 'HALF_YEARLY', index: 0 })).toEqual({ start: '2026-01-01', end: '2026-06-30' });
    expect(periodRange({ year: 2025, type: 'ANNUALLY', index: 0 })).toEqual({ start: '2025-01-01', end: '2025-12-31' });
  });

  it('compares with the previous period of the same kind, across the year boundary', () => {
    expect(previousPeriod({ year: 2026, type: 'MONTHLY', index: 0 })).toEqual({ year: 2025, type: 'MONTHLY', index: 11 });
    expect(previousPeriod({ year: 2026, type: 'QUARTERLY', index: 0 })).toEqual({ year: 2025, type: 'QUARTERLY', index: 3 });
    expect(previousPeriod({ year: 2026, type: 'HALF_YEARLY', index: 1 })).toEqual({ year: 2026, type: 'HALF_YEARLY', index: 0 });
    expect(previousPeriod({ year: 2026, type: 'ANNUALLY', index: 0 })).toEqual({ year: 2025, type: 'ANNUALLY', index: 0 });
  });

  it('offers only completed periods for the current year, every period for earlier years', () => {
    expect(completedChoices(2026, 'MONTHLY', '2026-11-24')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(completedChoices(2026, 'QUARTERLY', '2026-11-24')).toEqual([0, 1, 2]);
    expect(completedChoices(2026, 'HALF_YEARLY', '2026-11-24')).toEqual([0]);
    expect(completedChoices(2026, 'ANNUALLY', '2026-11-24')).toEqual([]);
    expect(completedChoices(2025, 'MONTHLY', '2026-11-24')).toHaveLength(12);
    expect(completedChoices(2026, 'QUARTERLY', '2026-04-01')).toEqual([0]);
    expect(periodTypesFor(2026, '2026-11-24')).toEqual(['MONTHLY', 'QUARTERLY', 'HALF_YEARLY']);
    expect(periodTypesFor(2026, '2026-01-15')).toEqual([]);
    expect(periodTypesFor(2025, '2026-01-15')).toEqual(['MONTHLY', 'QUARTERLY', 'HALF_YEARLY', 'ANNUALLY']);
  });

  it('recognises a whole period from its dates', () => {
    expect(periodOfRange({ start: '2026-07-01', end: '2026-09-30' })).toEqual({ year: 2026, type: 'QUARTERLY', index: 2 });
    expect(periodOfRange({ start: '2026-07-01', end: '2026-07-31' })).toEqual({ year: 2026, type: 'MONTHLY', index: 6 });
    expect(periodOfRange({ start: '2026-07-02', end: '2026-07-31' })).toBeNull();
  });
});

describe('report labels, file names and columns', () => {
  it("labels ranges 'D - D Mon - YYYY'", () => {
    expect(reportRangeLabel({ start: '2026-10-01', end: '2026-10-31' })).toBe('1 - 31 Oct - 2026');
    expect(reportRangeLabel({ start: '2026-07-01', end: '2026-09-30' })).toBe('1 Jul - 30 Sep - 2026');
    expect(reportRangeLabel({ start: '2025-12-15', end: '2026-01-14' })).toBe('15 Dec 2025 - 14 Jan - 2026');
  });

  it('names the file after the period type and range, with the organization as a prefix', () => {
    expect(reportFileName('organization', { start: '2026-10-01', end: '2026-10-31' })).toBe(
      'Monthly_organization_report_(1 - 31 Oct - 2026).csv',
    );
    expect(reportFileName('technician', { start: '2026-01-01', end: '2026-06-30' }, 'Acme/Clinic: "North"')).toBe(
      'Acme Clinic North_Half_yearly_technician_report_(1 Jan - 30 Jun - 2026).csv',
    );
    expect(reportFileName('technician', { start: '2026-01-05', end: '2026-01-06' })).toBe(
      'Custom_technician_report_(5 - 6 Jan - 2026).csv',
    );
  });

  it('has the columns of part 3 §9 for both periods', () => {
    expect(reportCsvColumns({ start: '2026-09-01', end: '2026-09-30' }, { start: '2026-10-01', end: '2026-10-31' })).toEqual([
      'ID',
      'Name',
      'Number of scans (1 - 30 Sep - 2026)',
      'Positive scans (1 - 30 Sep - 2026)',
      'Positivity rate (1 - 30 Sep - 2026)',
      'Number of scans (1 - 31 Oct - 2026)',
      'Positive scans (1 - 31 Oct - 2026)',
      'Positivity rate (1 - 31 Oct - 2026)',
      'Scan differ count',
      'Positivity differ percentage %',
    ]);
  });

  it('computes the differences as reported minus earlier, the rate in points with one decimal', () => {
    const f = reportFigures(3, 1, 4, 3);
    expect(f).toEqual({
      scans_count_1: 3,
      scans_count_2: 4,
      positivity_1: 1,
      positivity_2: 3,
      dynamic_positivity_percentage_1: 33.3,
      dynamic_positivity_percentage_2: 75,
      no_of_scan_diff: 1,
      positivity_percentage_diff: 41.7,
    });
    expect(reportCsvRecord(7, 'A', f)).toEqual([7, 'A', 3, 1, '33.3%', 4, 3, '75.0%', 1, '41.7']);
    expect(reportFigures(0, 0, 0, 0).positivity_percentage_diff).toBe(0);
  });

  it('appends a user type other than TECHNICIAN in brackets and cleans organization names', () => {
    expect(reportTechnicianName({ first_name: 'Asha', last_name: 'One', user_type: 'TECHNICIAN' })).toBe('Asha One');
    expect(reportTechnicianName({ first_name: 'Dev', last_name: null, user_type: 'ORG_ADMIN' })).toBe('Dev (ORG_ADMIN)');
    expect(reportOrganizationName('North,\r\nClinic, East')).toBe('North  Clinic  East');
  });
});

describe('the report query and form', () => {
  it('sends the chosen period as period 2 and the previous one as period 1', () => {
    expect(reportQueryFor({ year: 2026, type: 'QUARTERLY', index: 0 }, 12)).toEqual({
      report_start_date_1: '2025-10-01 00:00:00',
      report_end_date_1: '2025-12-31 23:59:59',
      report_start_date_2: '2026-01-01 00:00:00',
      report_end_date_2: '2026-03-31 23:59:59',
      report_log: 'true',
      organization_id: 12,
    });
  });

  it('reads dates with or without a time, and refuses bad ones and ends before starts', () => {
    const ok = ZReportQuery.safeParse({ ...reportQueryFor({ year: 2026, type: 'MONTHLY', index: 0 }), report_start_date_1: '2025-12-01' });
    expect(ok.success && ok.data.report_start_date_1).toEqual({ date: '2025-12-01', time: null });
    expect(ok.success && ok.data.report_end_date_2).toEqual({ date: '2026-01-31', time: '23:59:59' });
    expect(ok.success && ok.data.limit).toBe(200);
    const bad = ZReportQuery.safeParse({
      ...reportQueryFor({ year: 2026, type: 'MONTHLY', index: 0 }),
      report_start_date_1: '2025-13-01',
      report_end_date_2: '2025-12-31',
    });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(messages).toContainEqual(['report_start_date_1', REPORT_MESSAGES.dateFormat]);
  });

  it('asks for the year, the period type and the matching choice', () => {
    expect(checkReportForm({ year: null, type: null, index: null })).toEqual({
      ok: false,
      errors: { year: 'Select Year', type: 'Select date range' },
    });
    expect(checkReportForm({ year: 2025, type: 'MONTHLY', index: null })).toEqual({ ok: false, errors: { index: 'Select month' } });
    expect(checkReportForm({ year: 2025, type: 'ANNUALLY', index: null })).toEqual({
      ok: true,
      period: { year: 2025, type: 'ANNUALLY', index: 0 },
    });
  });
});
