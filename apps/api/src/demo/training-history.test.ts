import { describe, expect, it } from 'vitest';
import { Rng } from './rng.ts';
import { fitToBudget, outcome, planTrainingHistories } from './training-history.ts';

const NOW = Date.parse('2026-06-15T08:00:00Z');
const DAY = 86_400_000;

describe('demo training histories', () => {
  it('ends the day before the certificate was issued, training first, practice in the last 30 days', () => {
    const planned = planTrainingHistories(
      new Rng(1),
      [{ userId: 7, certificateIssueDate: '2026-03-01', training: 20, practice: 15 }],
      NOW,
    );
    expect(planned).toHaveLength(35);
    const end = Date.parse('2026-03-01T09:00:00Z') - DAY;
    const training = planned.filter((p) => p.kind === 'TRAINING');
    const practice = planned.filter((p) => p.kind === 'PRACTICE');
    expect(training).toHaveLength(20);
    expect(Math.max(...training.map((p) => p.at.getTime()))).toBeLessThanOrEqual(Math.min(...practice.map((p) => p.at.getTime())));
    expect(Math.max(...practice.map((p) => p.at.getTime()))).toBeLessThanOrEqual(end);
    expect(Math.min(...training.map((p) => p.at.getTime()))).toBeGreaterThanOrEqual(end - 75 * DAY);
    // Oldest first, and practice is verified or not, training never.
    expect(training.map((p) => p.at.getTime())).toEqual([...training.map((p) => p.at.getTime())].sort((a, b) => a - b));
    expect(training.every((p) => p.verified === null)).toBe(true);
  });

  it('ends yesterday for someone still in training', () => {
    const planned = planTrainingHistories(new Rng(2), [{ userId: 8, certificateIssueDate: null, training: 5, practice: 0 }], NOW);
    expect(Math.max(...planned.map((p) => p.at.getTime()))).toBeLessThanOrEqual(NOW - DAY);
  });

  it('gets better with practice and mixes every kind of result', () => {
    const rng = new Rng(3);
    const correctShare = (progress: number) => {
      let correct = 0;
      for (let i = 0; i < 2000; i++) if (outcome(rng, 'TRAINING', progress).result === 'CORRECT') correct++;
      return correct / 2000;
    };
    expect(correctShare(1)).toBeGreaterThan(correctShare(0) + 0.25);
    const results = new Set(Array.from({ length: 500 }, () => outcome(rng, 'PRACTICE', 0.5).result));
    expect([...results].sort()).toEqual(['BYPASS', 'CORRECT', 'INCORRECT', 'NO_ASSESSMENT', 'USER_BYPASS']);
    // Approval follows the result: correct approved, incorrect not, the rest not judged.
    for (let i = 0; i < 200; i++) {
      const o = outcome(rng, 'TRAINING', 0.5);
      expect(o.approved).toBe(o.result === 'CORRECT' ? true : o.result === 'INCORRECT' ? false : null);
    }
  });

  it('shrinks the plan to the budget the demo scale leaves', () => {
    const trainees = [
      { userId: 1, certificateIssueDate: null, training: 40, practice: 30 },
      { userId: 2, certificateIssueDate: null, training: 10, practice: 20 },
    ];
    expect(fitToBudget(trainees, 1000)).toEqual(trainees);
    const fitted = fitToBudget(trainees, 50);
    expect(fitted.reduce((n, t) => n + t.training + t.practice, 0)).toBeLessThanOrEqual(50);
    expect(fitted[0]).toMatchObject({ training: 20, practice: 15 });
  });
});
