import { describe, expect, it } from 'vitest';
import {
  ACTIVE_FOLLOW_UP_STATUSES,
  CLOSING_FOLLOW_UP_STATUSES,
  FOLLOW_UP_MESSAGES,
  FOLLOW_UP_MOVES,
  FOLLOW_UP_STATUSES,
  ZFollowUpAction,
  ZFollowUpListQuery,
  ZFollowUpSettingsInput,
  canMoveFollowUp,
  cervicalFinalStatus,
  daysBetween,
  fillSmsText,
  followUpActionProblems,
  followUpDueDate,
  impliedMove,
  isBreastScreenPositive,
  isCervicalScreenPositive,
  isOralScreenPositive,
  medianOfCounts,
  overdueFromDate,
  percentOf,
  smsTextProblem,
  defaultFollowUpSettings,
  type TFollowUpAction,
} from './follow-up.ts';

const settings = defaultFollowUpSettings(1);
const action = (input: unknown): TFollowUpAction => ZFollowUpAction.parse(input);

describe('what opens a case', () => {
  it('opens for a SCAN with a finding on either side, never for training or practice scans', () => {
    expect(isBreastScreenPositive({ scan_type: 'SCAN', left_breast_finding: ['1'], right_breast_finding: [] })).toBe(true);
    expect(isBreastScreenPositive({ scan_type: 'SCAN', left_breast_finding: [], right_breast_finding: ['2'] })).toBe(true);
    expect(isBreastScreenPositive({ scan_type: 'SCAN', left_breast_finding: [], right_breast_finding: [] })).toBe(false);
    expect(isBreastScreenPositive({ scan_type: 'TRAINING', left_breast_finding: ['1'], right_breast_finding: [] })).toBe(false);
  });

  it('reads a cervical exam only once its reviewers agree or an ADMIN made the final read', () => {
    const exam = (one: string, two: string, final: string | null = null) => ({
      reviewer_one_status: one,
      reviewer_two_status: two,
      final_status: final,
    });
    expect(cervicalFinalStatus(exam('VALID', 'NOT_REVIEWED'))).toBeNull();
    expect(cervicalFinalStatus(exam('VALID', 'IN_VALID'))).toBeNull();
    expect(cervicalFinalStatus(exam('VALID', 'IN_VALID', 'IN_VALID'))).toBe('IN_VALID');
    expect(cervicalFinalStatus(exam('VALID', 'VALID'))).toBe('VALID');
    const finding = [{ reviewer_status: 'VALID', any_finding: true }];
    expect(isCervicalScreenPositive(exam('VALID', 'VALID'), finding)).toBe(true);
    expect(isCervicalScreenPositive(exam('VALID', 'NOT_REVIEWED'), finding)).toBe(false);
    // Only the reviewer whose read stands counts: the overruled one's finding does not open a case.
    expect(isCervicalScreenPositive(exam('VALID', 'IN_VALID', 'IN_VALID'), finding)).toBe(false);
  });

  it('opens for an ORCA exam when a finding has a symptom', () => {
    expect(isOralScreenPositive([{ symptoms: [] }, { symptoms: ['Ulcer'] }])).toBe(true);
    expect(isOralScreenPositive([{ symptoms: [] }])).toBe(false);
  });
});

describe('the moves of a case', () => {
  it('lets no state move to itself or back to OPEN, and closing states move only LOST → CLOSED', () => {
    for (const from of FOLLOW_UP_STATUSES) {
      expect(canMoveFollowUp(from, from)).toBe(false);
      expect(canMoveFollowUp(from, 'OPEN')).toBe(false);
    }
    expect(FOLLOW_UP_MOVES.CLOSED).toEqual([]);
    expect(FOLLOW_UP_MOVES.DECLINED).toEqual([]);
    expect(FOLLOW_UP_MOVES.LOST_TO_FOLLOW_UP).toEqual(['CLOSED']);
  });

  it('closes with an outcome only from SEEN (or lost), so every outcome follows a visit', () => {
    const into = FOLLOW_UP_STATUSES.filter((s) => canMoveFollowUp(s, 'CLOSED'));
    expect(into).toEqual(['SEEN', 'LOST_TO_FOLLOW_UP']);
    for (const s of ACTIVE_FOLLOW_UP_STATUSES) expect(canMoveFollowUp(s, 'LOST_TO_FOLLOW_UP')).toBe(true);
    expect(CLOSING_FOLLOW_UP_STATUSES).toEqual(['CLOSED', 'LOST_TO_FOLLOW_UP', 'DECLINED']);
  });

  it('moves a case by itself when a contact reaches the patient or a referral is made', () => {
    expect(impliedMove('OPEN', { kind: 'CONTACT_ATTEMPT', result: 'REACHED' })).toBe('CONTACTED');
    expect(impliedMove('OPEN', { kind: 'CONTACT_ATTEMPT', result: 'NO_ANSWER' })).toBeNull();
    expect(impliedMove('CONTACTED', { kind: 'CONTACT_ATTEMPT', result: 'REACHED' })).toBeNull();
    expect(impliedMove('CONTACTED', { kind: 'REFERRAL' })).toBe('REFERRED');
    expect(impliedMove('SEEN', { kind: 'REFERRAL' })).toBeNull();
  });
});

describe('an action checked against its case', () => {
  const kase = { status: 'SEEN' as const, openedLocalDate: '2026-11-01' };

  it('asks the outcome, the site of a malignancy and the date of the diagnosis to close', () => {
    expect(followUpActionProblems(action({ kind: 'STATUS_CHANGE', status: 'CLOSED' }), kase, '2026-11-27')).toEqual({
      outcome: FOLLOW_UP_MESSAGES.outcomeRequired,
    });
    expect(
      followUpActionProblems(action({ kind: 'STATUS_CHANGE', status: 'CLOSED', outcome: 'MALIGNANT' }), kase, '2026-11-27'),
    ).toEqual({ site: FOLLOW_UP_MESSAGES.siteRequired, diagnosis_date: FOLLOW_UP_MESSAGES.diagnosisDateRequired });
    expect(
      followUpActionProblems(
        action({ kind: 'STATUS_CHANGE', status: 'CLOSED', outcome: 'BENIGN', site: 'BREAST', diagnosis_date: '2026-11-20' }),
        kase,
        '2026-11-27',
      ),
    ).toEqual({ site: FOLLOW_UP_MESSAGES.siteOnlyMalignant });
    expect(
      followUpActionProblems(action({ kind: 'STATUS_CHANGE', status: 'CLOSED', outcome: 'UNKNOWN' }), kase, '2026-11-27'),
    ).toEqual({});
  });

  it('refuses a diagnosis dated in the future or before the positive screen', () => {
    const close = (d: string) => action({ kind: 'STATUS_CHANGE', status: 'CLOSED', outcome: 'BENIGN', diagnosis_date: d });
    expect(followUpActionProblems(close('2026-11-28'), kase, '2026-11-27').diagnosis_date).toBe(FOLLOW_UP_MESSAGES.diagnosisDateFuture);
    expect(followUpActionProblems(close('2026-10-31'), kase, '2026-11-27').diagnosis_date).toBe(
      FOLLOW_UP_MESSAGES.diagnosisDateBeforeOpened,
    );
    expect(followUpActionProblems(close('2026-11-01'), kase, '2026-11-27')).toEqual({});
  });

  it('names the illegal move and refuses an outcome on any other move', () => {
    expect(followUpActionProblems(action({ kind: 'STATUS_CHANGE', status: 'REFERRED' }), kase, '2026-11-27')).toEqual({
      status: 'A case that is seen cannot be moved to referred.',
    });
    expect(
      followUpActionProblems(action({ kind: 'STATUS_CHANGE', status: 'LOST_TO_FOLLOW_UP', outcome: 'BENIGN' }), kase, '2026-11-27'),
    ).toEqual({ outcome: FOLLOW_UP_MESSAGES.outcomeOnlyOnClose });
  });

  it('takes only notes and corrections on a closed case, and an outcome restated only there', () => {
    const closed = { status: 'CLOSED' as const, openedLocalDate: '2026-11-01' };
    expect(
      followUpActionProblems(action({ kind: 'CONTACT_ATTEMPT', method: 'CALL', result: 'REACHED' }), closed, '2026-11-27'),
    ).toEqual({ non_field_errors: FOLLOW_UP_MESSAGES.closedCase });
    expect(followUpActionProblems(action({ kind: 'NOTE', note: 'Called the clinic.' }), closed, '2026-11-27')).toEqual({});
    const restate = action({ kind: 'CORRECTION', corrects: 5, note: 'Histology came back.', outcome: 'MALIGNANT', site: 'BREAST', diagnosis_date: '2026-11-10' });
    expect(followUpActionProblems(restate, closed, '2026-11-27')).toEqual({});
    expect(followUpActionProblems(restate, kase, '2026-11-27')).toEqual({ outcome: FOLLOW_UP_MESSAGES.outcomeOnlyOnClose });
  });

  it('refuses an appointment before its referral', () => {
    const referral = action({ kind: 'REFERRAL', facility: 'District Hospital', referral_date: '2026-11-20', appointment_date: '2026-11-19' });
    expect(followUpActionProblems(referral, { status: 'CONTACTED', openedLocalDate: '2026-11-01' }, '2026-11-27')).toEqual({
      appointment_date: FOLLOW_UP_MESSAGES.appointmentBeforeReferral,
    });
  });

  it('reads each kind with its own required fields', () => {
    expect(ZFollowUpAction.safeParse({ kind: 'NOTE', note: '  ' }).error?.issues[0]?.message).toBe(FOLLOW_UP_MESSAGES.noteRequired);
    expect(ZFollowUpAction.safeParse({ kind: 'REFERRAL', referral_date: '2026-11-20' }).error?.issues[0]?.path).toEqual(['facility']);
    expect(ZFollowUpAction.safeParse({ kind: 'CALL' }).success).toBe(false);
    expect(ZFollowUpAction.safeParse({ kind: 'CONTACT_ATTEMPT', method: 'EMAIL', result: 'REACHED' }).success).toBe(false);
  });
});

describe('due dates', () => {
  it('adds the state’s interval to the local date it was entered, and is overdue from the next day', () => {
    expect(followUpDueDate('OPEN', '2026-11-27', settings)).toBe('2026-12-04');
    expect(followUpDueDate('CONTACTED', '2026-11-27', settings)).toBe('2026-12-11');
    expect(followUpDueDate('REFERRED', '2026-02-27', settings)).toBe('2026-03-29');
    expect(followUpDueDate('SEEN', '2026-12-15', { ...settings, outcome_days: 30 })).toBe('2027-01-14');
    expect(followUpDueDate('CLOSED', '2026-11-27', settings)).toBeNull();
    expect(overdueFromDate('2026-12-31')).toBe('2027-01-01');
  });

  it('counts whole days between two dates across a daylight-saving change', () => {
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
    expect(daysBetween('2026-11-27', '2026-11-27')).toBe(0);
  });
});

describe('settings', () => {
  const good = { contact_days: 7, referral_days: 14, seen_days: 30, outcome_days: 30, digest_enabled: true, sms_enabled: false, sms_texts: {} };

  it('takes intervals of 1 to 365 whole days', () => {
    expect(ZFollowUpSettingsInput.safeParse(good).success).toBe(true);
    for (const bad of [0, 366, 2.5, '7']) {
      const issues = ZFollowUpSettingsInput.safeParse({ ...good, contact_days: bad }).error?.issues ?? [];
      expect(issues.map((i) => [i.path.join('.'), i.message])).toEqual([['contact_days', FOLLOW_UP_MESSAGES.dueDays]]);
    }
  });

  it('switches SMS on only with a text, and takes only the known placeholders', () => {
    expect(ZFollowUpSettingsInput.safeParse({ ...good, sms_enabled: true }).error?.issues[0]?.path).toEqual(['sms_texts']);
    expect(ZFollowUpSettingsInput.safeParse({ ...good, sms_enabled: true, sms_texts: { en: 'Hello {first_name}' } }).success).toBe(true);
    expect(smsTextProblem('Your result: {finding}')).toBe(FOLLOW_UP_MESSAGES.smsTextPlaceholder);
    expect(smsTextProblem('x'.repeat(321))).toBe(FOLLOW_UP_MESSAGES.smsTextMax);
    expect(ZFollowUpSettingsInput.safeParse({ ...good, sms_texts: { English: 'Hi' } }).success).toBe(false);
  });

  it('fills only the placeholders', () => {
    expect(fillSmsText('Dear {first_name}, call {organization} on {organization_phone}.', { first_name: 'Asha', organization: 'Clinic', organization_phone: '+91 1' })).toBe(
      'Dear Asha, call Clinic on +91 1.',
    );
  });
});

describe('the worklist query and the figures', () => {
  it('takes a status, active or closing, and refuses anything else on its field', () => {
    expect(ZFollowUpListQuery.parse({ status: 'active' }).status).toBe('active');
    expect(ZFollowUpListQuery.safeParse({ status: 'open' }).error?.issues[0]?.path).toEqual(['status']);
    expect(ZFollowUpListQuery.parse({ assigned_user: 'none' }).assigned_user).toBe('none');
    expect(ZFollowUpListQuery.parse({ assigned_user: '12' }).assigned_user).toBe(12);
  });

  it('computes an exact median from day counts and a percentage with one decimal', () => {
    expect(medianOfCounts([])).toBeNull();
    expect(medianOfCounts([[10, 1]])).toBe(10);
    expect(medianOfCounts([[3, 1], [10, 1]])).toBe(6.5);
    expect(medianOfCounts(new Map([[40, 2], [5, 2], [12, 1]]))).toBe(12);
    expect(percentOf(2, 3)).toBe(66.7);
    expect(percentOf(1, 0)).toBeNull();
  });
});
