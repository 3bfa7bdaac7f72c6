// Training histories of the demo accounts, so the training and practice report PDFs (issue 7) have believable rows:
// a run of TRAINING scans whose results improve as the trainee learns, then PRACTICE scans, ending the day before
// the certificate was issued (or yesterday, for someone still in training). The random scans of the main generator
// come on top. Pure planning here; the seeder turns each planned scan into a row of the trainee's clinic.
import type { ASSESSMENT_RESULTS } from '@sc/shared/constants';
import type { Rng } from './rng.ts';

type AssessmentResult = (typeof ASSESSMENT_RESULTS)[number];

export type Trainee = {
  userId: number;
  /** Certificate issue date (YYYY-MM-DD), when certified. */
  certificateIssueDate: string | null;
  training: number;
  practice: number;
};

export type PlannedScan = {
  userId: number;
  kind: 'TRAINING' | 'PRACTICE';
  at: Date;
  result: AssessmentResult;
  approved: boolean | null;
  /** practice_verified; null: not recorded (training scans). */
  verified: boolean | null;
};

const DAY = 86_400_000;
const MINUTE = 60_000;
/** Training runs from 75 to 30 days before the history ends, practice over the last 30 days. */
const TRAINING_DAYS = [75, 30] as const;
const PRACTICE_DAYS = [30, 1] as const;

/** Scales the trainees' counts down to `budget` scans in all (the demo's `scale` stays the number of scans). */
export function fitToBudget<T extends Trainee>(trainees: readonly T[], budget: number): T[] {
  const total = trainees.reduce((sum, t) => sum + t.training + t.practice, 0);
  if (total <= budget) return [...trainees];
  const factor = budget / total;
  return trainees.map((t) => ({
    ...t,
    training: Math.floor(t.training * factor),
    practice: Math.floor(t.practice * factor),
  }));
}

/**
 * A result for a scan `progress` (0 to 1) of the way through its phase: early training scans are right about a
 * third of the time, late ones four times in five; practice starts where training ended. A few are bypassed by
 * the app or the user, or were not assessed.
 */
export function outcome(rng: Rng, kind: PlannedScan['kind'], progress: number): Omit<PlannedScan, 'userId' | 'kind' | 'at'> {
  const roll = rng.next();
  let result: AssessmentResult;
  if (roll < 0.06) result = 'BYPASS';
  else if (roll < 0.1) result = 'USER_BYPASS';
  else if (roll < 0.14) result = 'NO_ASSESSMENT';
  else {
    const correctShare = kind === 'TRAINING' ? 0.35 + 0.45 * progress : 0.75 + 0.17 * progress;
    result = rng.chance(correctShare) ? 'CORRECT' : 'INCORRECT';
  }
  const approved = result === 'CORRECT' ? true : result === 'INCORRECT' ? false : null;
  const verified =
    kind === 'TRAINING' || result === 'NO_ASSESSMENT' ? null : result === 'CORRECT' ? rng.chance(0.9) : rng.chance(0.15);
  return { result, approved, verified };
}

/** Every planned scan of `trainees`, oldest first for each trainee. */
export function planTrainingHistories(rng: Rng, trainees: readonly Trainee[], nowMs: number): PlannedScan[] {
  const planned: PlannedScan[] = [];
  for (const trainee of trainees) {
    const issued = trainee.certificateIssueDate ? Date.parse(`${trainee.certificateIssueDate}T09:00:00Z`) : null;
    const endMs = Math.min(issued ?? nowMs, nowMs) - DAY;
    const phase = (kind: PlannedScan['kind'], count: number, [fromDays, toDays]: readonly [number, number]) => {
      const from = endMs - fromDays * DAY;
      const to = endMs - toDays * DAY;
      const times = Array.from({ length: count }, () => Math.floor((from + rng.next() * (to - from)) / MINUTE) * MINUTE).sort(
        (a, b) => a - b,
      );
      times.forEach((time, i) => {
        planned.push({ userId: trainee.userId, kind, at: new Date(time), ...outcome(rng, kind, count > 1 ? i / (count - 1) : 1) });
      });
    };
    phase('TRAINING', trainee.training, TRAINING_DAYS);
    phase('PRACTICE', trainee.practice, PRACTICE_DAYS);
  }
  return planned;
}
