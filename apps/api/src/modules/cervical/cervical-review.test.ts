// The blinded two-reviewer review (part 3 §2, §5, §6; architecture §7, §7b) for every role: who adds, who edits, who
// only reads; reviewer 1 and 2 and their statuses; blinding in the list, the detail and the documents; an ADMIN's final
// read of a disagreement; reviewer agreement; bad input that changes nothing.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { CERVICAL_MESSAGES, type TCervicalDocument, type TCervicalRow } from '@sc/shared/cervical';
import { cervicalDocumentReviews, cervicalExams } from '../../db/schema/index.ts';
import { setupTestApp } from '../../test/app.ts';
import { auth, createOrganization, createUser, signIn, type TestUser } from '../../test/factories.ts';
import { seedExam, type SeededExam } from './cervical.fixtures.ts';

const t = await setupTestApp();
const { db } = t.database;

let clinicId = 0;
let otherId = 0;
const tok: Record<string, string> = {};
const users: Record<string, TestUser> = {};
let exam: SeededExam;
let agreeing: SeededExam;
let otherExam: SeededExam;

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/${url}`, headers: auth(token), ...(payload ? { payload } : {}) });
const review = (
  token: string,
  document: number,
  status: 'VALID' | 'IN_VALID' = 'VALID',
  extra: Record<string, unknown> = {},
) =>
  call('POST', 'cervaical/document-user/', token, {
    document,
    review_status: status,
    qualities: [{ quality: 1, answer: true }],
    clinical_finding: [],
    ...extra,
  });
const docs = async (token: string, examId = exam.id) => {
  const res = await call('GET', `cervaical/document/?scan=${examId}&limit=100&ordering=document_type`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: TCervicalDocument[] }>().results;
};
const row = async (token: string, examId = exam.id) => {
  const res = await call('GET', `cervaical/?limit=100`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: TCervicalRow[] }>().results.find((r) => r.id === examId)!;
};
const examRow = async (id = exam.id) => (await db.select().from(cervicalExams).where(eq(cervicalExams.id, id)))[0]!;
const reviewCount = async () => (await db.select().from(cervicalDocumentReviews)).length;

beforeAll(async () => {
  clinicId = (await createOrganization(t, { name: 'Review Clinic' })).id;
  otherId = (await createOrganization(t, { name: 'Elsewhere' })).id;
  const add = async (key: string, userType: TUserType, org: number | null) => {
    users[key] = await createUser(t, { userType, organizationId: org, firstName: key });
    tok[key] = await signIn(t, users[key]!);
  };
  await add('admin', 'ADMIN', null);
  await add('subadmin', 'SUB_ADMIN', null);
  await add('orgadmin', 'ORG_ADMIN', clinicId);
  await add('manager', 'MANAGER', null);
  await add('technician', 'TECHNICIAN', clinicId);
  await add('r1', 'CERVAICAL_REVIEWER', null);
  await add('r2', 'CERVAICAL_REVIEWER', null);
  await add('r3', 'CERVAICAL_REVIEWER', null);
  await add('rOther', 'CERVAICAL_REVIEWER', otherId);
  exam = await seedExam(db, { organizationId: clinicId, documents: ['IMAGE', 'VIDEO'] });
  agreeing = await seedExam(db, { organizationId: clinicId, documents: ['IMAGE'] });
  otherExam = await seedExam(db, { organizationId: clinicId, documents: ['IMAGE'] });
});

describe('adding reviews', () => {
  it('refuses every role but CERVAICAL_REVIEWER, and changes nothing', async () => {
    const [doc] = exam.documentIds;
    expect((await review(tok.admin!, doc!)).statusCode).toBe(403);
    expect((await review(tok.subadmin!, doc!)).statusCode).toBe(403);
    expect((await review(tok.orgadmin!, doc!)).statusCode).toBe(403);
    expect((await review(tok.manager!, doc!)).statusCode).toBe(403);
    expect((await review(tok.technician!, doc!)).statusCode).toBe(403);
    expect((await call('GET', `cervaical/document/?scan=${exam.id}`, tok.manager!)).statusCode).toBe(403);
    expect(await reviewCount()).toBe(0);
  });

  it('refuses bad input with a field error and stores nothing', async () => {
    const [doc] = exam.documentIds;
    const bad: [Record<string, unknown>, string][] = [
      [{ review_status: undefined }, 'review_status'],
      [{ review_status: 'MAYBE' }, 'review_status'],
      [{ qualities: [{ quality: 99, answer: true }] }, 'qualities'],
      [{ qualities: [{ quality: 3, answer: true }] }, 'qualities'],
      [{ qualities: [{ quality: 1, answer: false }] }, 'qualities'],
      [{ qualities: [{ quality: 1, answer: true }, { quality: 1, answer: true }] }, 'qualities'],
      [{ qualities: [{ quality: 2, answer: true }] }, 'qualities'],
      [{ clinical_finding: [{ clinical_finding: 42, answer: true }] }, 'clinical_finding'],
      [{ clinical_finding: 'lesion' }, 'clinical_finding'],
      [{ document: 999999 }, 'document'],
      [{ document: 'x' }, 'document'],
      [{ user: users.r2!.id }, 'user'],
      [{ id: 5 }, 'id'],
    ];
    for (const [extra, field] of bad) {
      const res = await review(tok.r1!, doc!, 'VALID', extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      const keys = Object.keys(res.json());
      expect(
        keys.some((k) => k === field || k.startsWith(`${field}.`)),
        `${JSON.stringify(extra)} → ${keys.join(',')}`,
      ).toBe(true);
    }
    const missing = await review(tok.r1!, doc!, 'VALID', { review_status: undefined });
    expect(missing.json().review_status).toEqual([CERVICAL_MESSAGES.reviewStatusRequired]);
    const required = await review(tok.r1!, doc!, 'VALID', { qualities: [] });
    expect(required.json().qualities).toEqual([CERVICAL_MESSAGES.requiredQuality('Image in focus')]);
    expect(await reviewCount()).toBe(0);
  });

  it('a document out of a reviewer\'s scope is not a valid document', async () => {
    const res = await review(tok.rOther!, exam.documentIds[0]!);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('document');
    expect((await call('GET', `cervaical/document/?scan=${exam.id}`, tok.rOther!)).statusCode).toBe(404);
  });
});

describe('the two-reviewer workflow with blinding', () => {
  it('makes the first reviewer reviewer 1, NOT_REVIEWED until every document is reviewed', async () => {
    const res = await review(tok.r1!, exam.documentIds[0]!, 'VALID', {
      clinical_finding: [{ clinical_finding: 1, answer: true }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ detail: 'Review updated Successfully', reviewer: 1, review_status: 'VALID' });
    expect(res.json().clinical_finding).toEqual([
      { id: 1, name: 'Acetowhite lesion', answer: true, clinical_finding: 1 },
    ]);
    const stored = await examRow();
    expect(stored.reviewerOneId).toBe(users.r1!.id);
    expect(stored.reviewerOneStatus).toBe('NOT_REVIEWED');
    // Reviewed once: read-only for the reviewer.
    const again = await review(tok.r1!, exam.documentIds[0]!, 'IN_VALID');
    expect(again.statusCode).toBe(400);
    expect(again.json().non_field_errors).toEqual([CERVICAL_MESSAGES.alreadyReviewed]);
  });

  it('hides reviewer 1\'s answers and status from a second reviewer until their own are in', async () => {
    const seen = await docs(tok.r2!);
    expect(seen[0]!.documentusers).toEqual([]);
    expect(seen[0]!.review_count).toBe(1);
    const r = await row(tok.r2!);
    expect(r.reviewer_one_status).toBeNull();
    expect(r.blinded).toBe(true);
    const detail = await call('GET', `cervaical/${exam.id}/`, tok.r2!);
    expect(detail.json().reviewer_one_status).toBeNull();
    // Filtering by the hidden status does not find it either.
    const filtered = await call('GET', 'cervaical/?reviewer_one_status=NOT_REVIEWED', tok.r2!);
    expect(filtered.json().results.map((x: TCervicalRow) => x.id)).not.toContain(exam.id);
    // Reviewer 1 sees their own; the other roles see everything.
    expect((await docs(tok.r1!))[0]!.documentusers).toHaveLength(1);
    expect((await docs(tok.orgadmin!))[0]!.documentusers).toHaveLength(1);
    expect((await row(tok.admin!)).reviewer_one_status).toBe('NOT_REVIEWED');
  });

  it('finishes reviewer 1 as VALID and reviewer 2 as IN_VALID, then both see each other', async () => {
    expect((await review(tok.r1!, exam.documentIds[1]!, 'VALID')).statusCode).toBe(201);
    expect((await examRow()).reviewerOneStatus).toBe('VALID');
    // Reviewer 1 finished; reviewer 2 has not started: reviewer 1 sees no other answers, reviewer 2 still blinded.
    expect((await row(tok.r2!)).reviewer_one_status).toBeNull();
    expect((await review(tok.r2!, exam.documentIds[0]!, 'IN_VALID')).statusCode).toBe(201);
    const mid = await examRow();
    expect(mid.reviewerTwoId).toBe(users.r2!.id);
    expect(mid.reviewerTwoStatus).toBe('NOT_REVIEWED');
    // Reviewer 1 finished: now sees reviewer 2's answers; reviewer 2 (not finished) still does not see reviewer 1's.
    expect((await docs(tok.r1!))[0]!.documentusers).toHaveLength(2);
    expect((await docs(tok.r2!))[0]!.documentusers.map((d) => d.user)).toEqual([users.r2!.id]);
    expect((await review(tok.r2!, exam.documentIds[1]!, 'VALID')).statusCode).toBe(201);
    const done = await examRow();
    expect([done.reviewerOneStatus, done.reviewerTwoStatus]).toEqual(['VALID', 'IN_VALID']);
    const seen = await docs(tok.r2!);
    expect(seen[0]!.documentusers.map((d) => d.reviewer)).toEqual([1, 2]);
    const r = await row(tok.r2!);
    expect(r).toMatchObject({ reviewer_one_status: 'VALID', reviewer_two_status: 'IN_VALID', blinded: false });
    expect(r.disagreement).toBe(true);
  });

  it('refuses a third reviewer and the reviewers\' own edits', async () => {
    const third = await review(tok.r3!, exam.documentIds[0]!);
    expect(third.statusCode).toBe(400);
    expect(third.json().non_field_errors).toEqual([CERVICAL_MESSAGES.examFull]);
    // A third reviewer cannot change anything, so blinding does not apply to them.
    expect((await docs(tok.r3!))[0]!.documentusers).toHaveLength(2);
    const mine = (await docs(tok.r1!))[0]!.documentusers.find((d) => d.user === users.r1!.id)!;
    const edit = await call('PATCH', `cervaical/document-user/${mine.id}/`, tok.r1!, {
      document: exam.documentIds[0],
      review_status: 'IN_VALID',
      qualities: [{ quality: 1, answer: true }],
    });
    expect(edit.statusCode).toBe(403);
    for (const who of ['subadmin', 'orgadmin']) {
      const res = await call('PATCH', `cervaical/document-user/${mine.id}/`, tok[who]!, {
        document: exam.documentIds[0],
        review_status: 'IN_VALID',
        qualities: [{ quality: 1, answer: true }],
      });
      expect(res.statusCode, who).toBe(403);
    }
    expect((await examRow()).reviewerOneStatus).toBe('VALID');
  });
});

describe('adjudication and ADMIN edits', () => {
  it('lists the disagreement for an ADMIN and takes a final read', async () => {
    const list = await call('GET', 'cervaical/?disagreement=true&adjudicated=false', tok.admin!);
    expect(list.json().results.map((r: TCervicalRow) => r.id)).toEqual([exam.id]);
    const body = { final_status: 'IN_VALID', note: 'Lesion visible on the second photo.' };
    expect((await call('POST', `cervaical/${exam.id}/adjudication/`, tok.subadmin!, body)).statusCode).toBe(403);
    expect((await call('POST', `cervaical/${exam.id}/adjudication/`, tok.r1!, body)).statusCode).toBe(403);
    const bad = await call('POST', `cervaical/${exam.id}/adjudication/`, tok.admin!, { final_status: 'NO' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('final_status');
    const notDisagreeing = await call('POST', `cervaical/${agreeing.id}/adjudication/`, tok.admin!, body);
    expect(notDisagreeing.statusCode).toBe(400);
    expect(notDisagreeing.json().non_field_errors).toEqual([CERVICAL_MESSAGES.notDisagreement]);
    expect((await call('POST', `cervaical/999999/adjudication/`, tok.admin!, body)).statusCode).toBe(404);
    const ok = await call('POST', `cervaical/${exam.id}/adjudication/`, tok.admin!, body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().adjudication).toMatchObject({ final_status: 'IN_VALID', note: body.note });
    const done = await call('GET', 'cervaical/?disagreement=true&adjudicated=true', tok.admin!);
    expect(done.json().count).toBe(1);
  });

  it('lets an ADMIN edit a review; the statuses follow', async () => {
    const theirs = (await docs(tok.admin!))[0]!.documentusers.find((d) => d.user === users.r2!.id)!;
    const res = await call('PATCH', `cervaical/document-user/${theirs.id}/`, tok.admin!, {
      id: theirs.id,
      document: exam.documentIds[0],
      user: users.r2!.id,
      review_status: 'VALID',
      qualities: [{ quality: 1, answer: true }, { quality: 2, answer: true }],
      clinical_finding: [],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ user: users.r2!.id, reviewer: 2, review_status: 'VALID' });
    const stored = await examRow();
    expect([stored.reviewerOneId, stored.reviewerTwoId]).toEqual([users.r1!.id, users.r2!.id]);
    expect([stored.reviewerOneStatus, stored.reviewerTwoStatus]).toEqual(['VALID', 'VALID']);
    const wrongDoc = await call('PATCH', `cervaical/document-user/${theirs.id}/`, tok.admin!, {
      document: exam.documentIds[1],
      review_status: 'VALID',
      qualities: [{ quality: 1, answer: true }],
    });
    expect(wrongDoc.statusCode).toBe(400);
    expect((await call('PATCH', 'cervaical/document-user/999999/', tok.admin!, {
      document: 1,
      review_status: 'VALID',
      qualities: [{ quality: 1, answer: true }],
    })).statusCode).toBe(404);
  });

  it('reports each reviewer\'s agreement rate', async () => {
    // Reviewer 1 and 3 agree on one exam, disagree on another.
    expect((await review(tok.r1!, agreeing.documentIds[0]!, 'VALID')).statusCode).toBe(201);
    expect((await review(tok.r3!, agreeing.documentIds[0]!, 'VALID')).statusCode).toBe(201);
    expect((await review(tok.r1!, otherExam.documentIds[0]!, 'VALID')).statusCode).toBe(201);
    expect((await review(tok.r3!, otherExam.documentIds[0]!, 'IN_VALID')).statusCode).toBe(201);
    const res = await call('GET', 'cervaical/reviewer-agreement/', tok.r2!);
    expect(res.statusCode).toBe(200);
    const by = Object.fromEntries(
      res.json().results.map((r: { user: { id: number } }) => [r.user.id, r]),
    );
    expect(by[users.r1!.id]).toMatchObject({ reviewed: 3, compared: 3, agreed: 2 });
    expect(by[users.r1!.id].rate).toBeCloseTo(2 / 3);
    expect(by[users.r3!.id]).toMatchObject({ reviewed: 2, compared: 2, agreed: 1, rate: 0.5 });
    expect((await call('GET', 'cervaical/reviewer-agreement/', tok.manager!)).statusCode).toBe(403);
    const options = await call('GET', 'cervaical/review-options/', tok.r1!);
    expect(options.json().qualities.map((q: { name: string }) => q.name)).toEqual([
      'Image in focus',
      'Adequate lighting',
    ]);
  });
});

describe('an Invalid photo (issue 23.5)', () => {
  it('needs no required quality, and stores only what the reviewer checked', async () => {
    const own = await seedExam(db, { organizationId: clinicId, documents: ['IMAGE', 'IMAGE'] });
    const [first, second] = own.documentIds;
    const bare = await review(tok.r3!, first!, 'IN_VALID', { qualities: [] });
    expect(bare.statusCode, bare.body).toBe(201);
    expect(bare.json().qualities).toEqual([]);
    // A quality the reviewer did check is kept as checked; the required ones are not made true for them.
    const some = await review(tok.r3!, second!, 'IN_VALID', { qualities: [{ quality: 2, answer: true }] });
    expect(some.statusCode, some.body).toBe(201);
    expect(some.json().qualities.map((q: { quality: number }) => q.quality)).toEqual([2]);
    // An ADMIN's edit follows the same rule both ways: to Valid without them is refused, Invalid without them is not.
    const id = bare.json().id as number;
    const toValid = await call('PATCH', `cervaical/document-user/${id}/`, tok.admin!, {
      document: first,
      review_status: 'VALID',
      qualities: [],
      clinical_finding: [],
    });
    expect(toValid.statusCode).toBe(400);
    expect(toValid.json().qualities).toEqual([CERVICAL_MESSAGES.requiredQuality('Image in focus')]);
    const stillInvalid = await call('PATCH', `cervaical/document-user/${id}/`, tok.admin!, {
      document: first,
      review_status: 'IN_VALID',
      qualities: [{ quality: 2, answer: true }],
      clinical_finding: [],
    });
    expect(stillInvalid.statusCode, stillInvalid.body).toBe(200);
  });
});

describe('the role before the body (issue 23.23)', () => {
  it('answers 403 to a role that may not add or edit a review, whatever the body, and 404 before a partial body', async () => {
    const own = await seedExam(db, { organizationId: clinicId, documents: ['IMAGE'] });
    const [doc] = own.documentIds;
    const mine = await review(tok.r3!, doc!, 'VALID');
    expect(mine.statusCode, mine.body).toBe(201);
    const id = mine.json().id as number;
    const partial = { review_status: 'IN_VALID' };
    for (const who of ['admin', 'subadmin', 'orgadmin', 'manager', 'technician']) {
      for (const body of [{}, partial, { document: 'x' }]) {
        const res = await call('POST', 'cervaical/document-user/', tok[who]!, body);
        expect(res.statusCode, `${who} POST ${JSON.stringify(body)}`).toBe(403);
      }
    }
    for (const who of ['r1', 'r3', 'subadmin', 'orgadmin', 'manager', 'technician']) {
      const res = await call('PATCH', `cervaical/document-user/${id}/`, tok[who]!, partial);
      expect(res.statusCode, `${who} PATCH`).toBe(403);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    }
    // The role that may edit: a review that does not exist is 404 before its partial body is judged, then the body.
    expect((await call('PATCH', 'cervaical/document-user/999999/', tok.admin!, partial)).statusCode).toBe(404);
    const bad = await call('PATCH', `cervaical/document-user/${id}/`, tok.admin!, partial);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('document');
  });
});
