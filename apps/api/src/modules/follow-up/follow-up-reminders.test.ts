// The reminders' composition, without a database: the local hour of each zone, the patient's initials, the digest's
// table (most overdue first as given, 50 rows at most, the count of all), its link, and which patient gets which SMS.
import { describe, expect, it } from 'vitest';
import {
  composeDigest,
  digestLink,
  FOLLOW_UP_DIGEST_MAX_ROWS,
  localHour,
  patientInitials,
  reminderSmsFor,
  type OverdueCase,
} from './follow-up-reminders.ts';

const org = { id: 7, name: 'Manila Clinic', timezone: 'Asia/Manila', mobile: '+63-9170000000' };
const overdue = (over: Partial<OverdueCase> = {}): OverdueCase => ({
  id: 1,
  status: 'OPEN',
  nextDue: '2026-12-01',
  smsRemindedStatus: null,
  patientFirstName: 'Asha',
  patientLastName: 'Devi',
  patientMobile: '+91-9876500001',
  reminderConsent: true,
  consentLanguage: 'en',
  assignedFirstName: null,
  assignedLastName: null,
  ...over,
});

describe('localHour', () => {
  it('reads the hour in the zone, and never for an unknown zone', () => {
    const at = new Date('2026-12-01T02:30:00Z');
    expect(localHour(at, 'Asia/Manila')).toBe(10);
    expect(localHour(at, 'Asia/Kolkata')).toBe(8);
    expect(localHour(at, 'America/Los_Angeles')).toBe(18);
    expect(localHour(new Date('2026-12-01T16:00:00Z'), 'Asia/Manila')).toBe(0);
    expect(localHour(at, 'Mars/Olympus')).toBe(-1);
  });
});

describe('patientInitials', () => {
  it('keeps the first letter of each name, upper case', () => {
    expect(patientInitials('asha', 'devi')).toBe('A.D.');
    expect(patientInitials(' Émilie ', '')).toBe('É.');
  });
});

describe('composeDigest', () => {
  it('lists the count, each case without a name, and the link', () => {
    const link = digestLink('https://console.example.org/', 7);
    expect(link).toBe('https://console.example.org/follow-up?organization=7&overdue=true');
    const { subject, body } = composeDigest(
      org,
      [
        overdue({ id: 12, nextDue: '2026-11-20', status: 'REFERRED', assignedFirstName: 'Ravi', assignedLastName: 'Kumar' }),
        overdue({ id: 13, nextDue: '2026-12-04', patientFirstName: 'Maria', patientLastName: 'Santos' }),
      ],
      '2026-12-05',
      link,
    );
    expect(subject).toBe('Manila Clinic: 2 overdue follow-up cases');
    const lines = body.split('\n');
    expect(lines[0]).toBe('Manila Clinic: 2 overdue follow-up cases on 2026-12-05.');
    expect(lines[2]!.split(/\s{2,}/)).toEqual(['Case', 'Patient', 'Status', 'Due', 'Days overdue', 'Assigned to']);
    expect(lines[3]!.split(/\s{2,}/)).toEqual(['#12', 'A.D.', 'Referred', '2026-11-20', '15', 'Ravi Kumar']);
    expect(lines[4]!.split(/\s{2,}/)).toEqual(['#13', 'M.S.', 'Open', '2026-12-04', '1', '-']);
    expect(lines.at(-1)).toBe(link);
    expect(body).not.toMatch(/Asha|Devi|Maria|Santos|9876500001/);
  });

  it('lists 50 cases at most and counts them all', () => {
    const cases = Array.from({ length: 53 }, (_, i) => overdue({ id: i + 1 }));
    const { subject, body } = composeDigest(org, cases, '2026-12-05', 'link');
    expect(subject).toBe('Manila Clinic: 53 overdue follow-up cases');
    expect(body.split('\n').filter((l) => l.startsWith('#'))).toHaveLength(FOLLOW_UP_DIGEST_MAX_ROWS);
    expect(body).toContain('… and 3 more.');
  });

  it('says "case" for one', () => {
    expect(composeDigest(org, [overdue()], '2026-12-05', 'link').subject).toBe('Manila Clinic: 1 overdue follow-up case');
  });
});

describe('reminderSmsFor', () => {
  const texts = { en: 'Dear {first_name}, call {organization} on {organization_phone}.', hi: '   ' };

  it('fills the text of the patient consent language', () => {
    expect(reminderSmsFor(overdue({ consentLanguage: 'EN' }), texts, org)).toEqual({
      to: '+91-9876500001',
      language: 'en',
      body: 'Dear Asha, call Manila Clinic on +63-9170000000.',
    });
    expect(reminderSmsFor(overdue(), texts, { ...org, mobile: null })?.body).toBe('Dear Asha, call Manila Clinic on .');
  });

  it('sends none without consent, mobile, language, a text in that language, or when this state was reminded', () => {
    expect(reminderSmsFor(overdue({ reminderConsent: false }), texts, org)).toBeNull();
    expect(reminderSmsFor(overdue({ patientMobile: null }), texts, org)).toBeNull();
    expect(reminderSmsFor(overdue({ consentLanguage: null }), texts, org)).toBeNull();
    expect(reminderSmsFor(overdue({ consentLanguage: 'ta' }), texts, org)).toBeNull();
    expect(reminderSmsFor(overdue({ consentLanguage: 'hi' }), texts, org)).toBeNull();
    expect(reminderSmsFor(overdue({ smsRemindedStatus: 'OPEN' }), texts, org)).toBeNull();
    expect(reminderSmsFor(overdue({ smsRemindedStatus: 'OPEN', status: 'CONTACTED' }), texts, org)).not.toBeNull();
  });
});
