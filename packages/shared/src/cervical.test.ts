// architecture §7 reviewer statuses and the blinding rule, computed on fixtures.
import { describe, expect, it } from 'vitest';
import {
  ZReviewInput,
  computeReviewerSlots,
  formatRate,
  isDisagreement,
  missingRequiredAnswer,
  reviewRequiresAnswers,
  reviewerSeesOthers,
  type TReviewFact,
} from './cervical.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute));
const r = (documentId: number, userId: number, status: 'VALID' | 'IN_VALID', minute: number): TReviewFact => ({
  documentId,
  userId,
  status,
  at: at(minute),
});

describe('computeReviewerSlots', () => {
  it('has nobody before the first review', () => {
    expect(computeReviewerSlots([1, 2], [])).toEqual({ one: null, two: null });
  });

  it('orders reviewers by their first review; NOT_REVIEWED until every document is reviewed', () => {
    const slots = computeReviewerSlots([1, 2], [r(1, 7, 'VALID', 5), r(1, 3, 'VALID', 9)]);
    expect(slots).toEqual({ one: { userId: 7, status: 'NOT_REVIEWED' }, two: { userId: 3, status: 'NOT_REVIEWED' } });
  });

  it('is VALID when every review is valid, IN_VALID when one is not', () => {
    const reviews = [
      r(1, 7, 'VALID', 1),
      r(2, 7, 'VALID', 2),
      r(2, 3, 'VALID', 3),
      r(1, 3, 'IN_VALID', 4),
    ];
    expect(computeReviewerSlots([1, 2], reviews)).toEqual({
      one: { userId: 7, status: 'VALID' },
      two: { userId: 3, status: 'IN_VALID' },
    });
  });

  it('breaks a tie of first times by user id and ignores reviews of other documents', () => {
    const slots = computeReviewerSlots([1], [r(1, 9, 'VALID', 1), r(1, 4, 'VALID', 1), r(8, 2, 'VALID', 0)]);
    expect(slots.one?.userId).toBe(4);
    expect(slots.two?.userId).toBe(9);
  });

  it('accepts ISO strings for times', () => {
    const slots = computeReviewerSlots([1], [{ documentId: 1, userId: 5, status: 'IN_VALID', at: '2026-01-01T00:00:00Z' }]);
    expect(slots.one).toEqual({ userId: 5, status: 'IN_VALID' });
  });
});

describe('blinding and disagreement', () => {
  const exam = (one: number | null, s1: 'NOT_REVIEWED' | 'VALID' | 'IN_VALID', two: number | null, s2: typeof s1) => ({
    reviewer_one_id: one,
    reviewer_one_status: s1,
    reviewer_two_id: two,
    reviewer_two_status: s2,
  });
  it('lets a reviewer see others only after finishing, or when both slots are someone else\'s', () => {
    expect(reviewerSeesOthers(1, exam(1, 'NOT_REVIEWED', null, 'NOT_REVIEWED'))).toBe(false);
    expect(reviewerSeesOthers(1, exam(1, 'VALID', 2, 'NOT_REVIEWED'))).toBe(true);
    expect(reviewerSeesOthers(2, exam(1, 'VALID', 2, 'NOT_REVIEWED'))).toBe(false);
    expect(reviewerSeesOthers(3, exam(1, 'VALID', null, 'NOT_REVIEWED'))).toBe(false);
    expect(reviewerSeesOthers(3, exam(1, 'VALID', 2, 'NOT_REVIEWED'))).toBe(true);
  });
  it('is a disagreement only when both finished with different statuses', () => {
    expect(isDisagreement('VALID', 'IN_VALID')).toBe(true);
    expect(isDisagreement('VALID', 'VALID')).toBe(false);
    expect(isDisagreement('VALID', 'NOT_REVIEWED')).toBe(false);
  });
  it('formats a rate', () => {
    expect(formatRate(2 / 3)).toBe('66.7%');
    expect(formatRate(null)).toBe('—');
  });
});

describe('ZReviewInput', () => {
  it('requires review_status and takes checked items only', () => {
    expect(ZReviewInput.safeParse({ document: 1 }).success).toBe(false);
    expect(
      ZReviewInput.safeParse({ document: 1, review_status: 'VALID', qualities: [{ quality: 1, answer: false }] })
        .success,
    ).toBe(false);
    const ok = ZReviewInput.parse({ document: 1, review_status: 'IN_VALID' });
    expect(ok).toMatchObject({ qualities: [], clinical_finding: [] });
  });
});

describe('missingRequiredAnswer (issue 23.5)', () => {
  const options = [
    { id: 1, name: 'Image in focus', required: true },
    { id: 2, name: 'Adequate lighting', required: false },
    { id: 3, name: 'Cervix fully visible', required: true },
  ];

  it('asks a Valid review (or one without a status yet) for every required item', () => {
    expect(missingRequiredAnswer('VALID', options, [])?.name).toBe('Image in focus');
    expect(missingRequiredAnswer('VALID', options, [1, 2])?.name).toBe('Cervix fully visible');
    expect(missingRequiredAnswer('VALID', options, [1, 3])).toBeUndefined();
    expect(missingRequiredAnswer(null, options, [2])?.name).toBe('Image in focus');
  });

  it('asks an Invalid review for none of them', () => {
    expect(missingRequiredAnswer('IN_VALID', options, [])).toBeUndefined();
    expect(missingRequiredAnswer('IN_VALID', options, [2])).toBeUndefined();
    expect(reviewRequiresAnswers('IN_VALID')).toBe(false);
    expect(reviewRequiresAnswers('VALID')).toBe(true);
  });
});
