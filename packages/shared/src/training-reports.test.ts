import { describe, expect, it } from 'vitest';
import { correctRate, scanDisplayId, trainingReportFilename, trainingReportPath } from './training-reports.ts';

describe('training report helpers', () => {
  it('names the file after the username, with nothing that needs quoting in a header', () => {
    expect(trainingReportFilename('training', 'pooja.sharma_2')).toBe('training-report-pooja.sharma_2.pdf');
    expect(trainingReportFilename('practice', 'a"b\\c d/é')).toBe('practice-report-a_b_c_d__.pdf');
    expect(trainingReportFilename('training', '')).toBe('training-report-user.pdf');
  });

  it('gives the path of each report under /api/v1/', () => {
    expect(trainingReportPath('training', 12)).toBe('user/training/report/pdf/12/');
    expect(trainingReportPath('practice', 3)).toBe('user/practice/report/pdf/3/');
  });

  it('prefixes scan IDs by type (part 2 §9)', () => {
    expect(scanDisplayId('TRAINING', 7)).toBe('T-7');
    expect(scanDisplayId('PRACTICE', 7)).toBe('P-7');
  });

  it('computes the correct rate over judged scans only, to one decimal', () => {
    expect(correctRate(2, 1)).toBe(66.7);
    expect(correctRate(0, 3)).toBe(0);
    expect(correctRate(0, 0)).toBeNull();
  });
});
