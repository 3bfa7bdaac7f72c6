import { describe, expect, it } from 'vitest';
import {
  ZOrcaListQuery,
  groupOrcaFindings,
  monthsAsYears,
  orcaRowActions,
  type TOrcaFinding,
} from './orca.ts';

const finding = (
  id: number,
  part: string,
  index: number,
  exam: TOrcaFinding['exam'] = 'intra_oral_exam',
): TOrcaFinding => ({
  id,
  exam,
  part,
  sub_part: null,
  index,
  symptoms: [],
  path: null,
});

describe('ORCA rules', () => {
  it('shows months as years divided by 12, to one decimal', () => {
    expect(monthsAsYears(24)).toBe('2');
    expect(monthsAsYears(18)).toBe('1.5');
    expect(monthsAsYears(7)).toBe('0.6');
    expect(monthsAsYears(0)).toBe('0');
    expect(monthsAsYears(null)).toBeNull();
  });

  it('groups one exam kind by body part in index order, leaving the other kinds out', () => {
    const groups = groupOrcaFindings(
      [
        finding(1, 'Tongue', 3),
        finding(2, 'Buccal mucosa', 0),
        finding(3, 'Tongue', 2),
        finding(4, 'Lips', 1, 'extra_oral_exam'),
      ],
      'intra_oral_exam',
    );
    expect(groups.map((g) => g.part)).toEqual(['Buccal mucosa', 'Tongue']);
    expect(groups[1]?.findings.map((f) => f.id)).toEqual([3, 1]);
  });

  it('offers Summary and Report only with a report file', () => {
    expect(orcaRowActions({ file_path: { reports: [], consent_form: [{ path: 'x' }] } })).toEqual([
      'details',
    ]);
    expect(orcaRowActions({ file_path: { reports: [{ path: 'r' }], consent_form: [] } })).toEqual([
      'details',
      'summary',
      'report',
    ]);
  });

  it('refuses an age range whose minimum is above its maximum', () => {
    expect(ZOrcaListQuery.safeParse({ age_min: '60', age_max: '20' }).success).toBe(false);
    expect(ZOrcaListQuery.safeParse({ age_min: '20', age_max: '60', has_report: 'true' }).success).toBe(true);
  });
});
