import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TCervicalDetail, TCervicalDocument, TDocumentUser } from '@sc/shared/cervical';
import { CERVICAL_MESSAGES } from '@sc/shared/cervical';
import type { TUserType } from '@sc/shared/roles';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { CervicalReviewDialog } from './CervicalReviewDialog.tsx';

const exam = (over: Partial<TCervicalDetail> = {}): TCervicalDetail => ({
  id: 5,
  patient: {
    id: 41,
    first_name: 'Kavya',
    last_name: 'Reddy',
    age: 38,
    date_of_birth: null,
    mobile_country_code: 'IN',
    mobile: '9876500000',
    email: null,
    physician_name: null,
    physician_email: null,
    created: null,
    gender: 'FEMALE',
  },
  organization_data: { id: 1, name: 'City Clinic' },
  technician_data: null,
  technician_name: null,
  date_time: '2026-03-01T10:00:00Z',
  created: '2026-03-01T11:00:00Z',
  breast_type: null,
  left_breast_finding: [],
  right_breast_finding: [],
  is_positive: false,
  notes: {},
  is_survivor: false,
  has_family_history: false,
  has_symptoms: false,
  device_serial_number: 'CRV-1',
  device_id: null,
  sensor_serial_number: null,
  software_version: null,
  reviewer_one: null,
  reviewer_one_status: 'NOT_REVIEWED',
  reviewer_two: null,
  reviewer_two_status: 'NOT_REVIEWED',
  blinded: false,
  disagreement: false,
  adjudication: null,
  file_path: { reports: [], consent_form: [] },
  tablet_serial_number: null,
  hardware_version: null,
  latitude: null,
  longitude: null,
  metadata: { device: { device_model: null, manufacturer: null, os_version: null } },
  ...over,
});

const review = (id: number, user: number, reviewer: number): TDocumentUser => ({
  id,
  user,
  user_data: { id: user, first_name: `R${reviewer}`, last_name: 'Reader' },
  reviewer,
  review_status: 'VALID',
  review_status_at: '2026-03-02T10:00:00Z',
  qualities: [{ id: 1, name: 'Image in focus', answer: true, quality: 1 }],
  clinical_finding: [],
});

const doc = (id: number, documentusers: TDocumentUser[], reviewCount = documentusers.length): TCervicalDocument => ({
  id,
  scan: 5,
  path: `documents/cervical/5/${id}.jpg`,
  document_type: 'IMAGE',
  symptom_tag: 'After acetic acid',
  documentusers,
  review_count: reviewCount,
});

function setup(role: TUserType, docs: TCervicalDocument[], detail = exam()) {
  const fetchMock = mockFetch({
    'GET /api/v1/cervaical/5/': { body: detail },
    'GET /api/v1/cervaical/document/': { body: { count: docs.length, next: null, previous: null, results: docs } },
    'GET /api/v1/cervaical/review-options/': {
      body: {
        qualities: [
          { id: 1, name: 'Image in focus', is_required: true },
          { id: 2, name: 'Adequate lighting', is_required: false },
        ],
        clinical_findings: [{ id: 1, name: 'Acetowhite lesion', is_required: false }],
      },
    },
    'POST /api/v1/cervaical/document-user/': { status: 201, body: {} },
    'PATCH /api/v1/cervaical/document-user/31/': { body: {} },
  });
  const onClose = vi.fn();
  renderScanRoutes(makeUser(role), '/cervaical', { '/cervaical': <CervicalReviewDialog examId={5} onClose={onClose} /> });
  return { fetchMock, onClose };
}

const sent = (fetchMock: ReturnType<typeof mockFetch>, method: string) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === method)
    .map(([input, init]) => ({ url: String(input), body: JSON.parse(String(init?.body)) as Record<string, unknown> }));

describe('CervicalReviewDialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('requires a status, then sends one POST per document with only the checked items', async () => {
    const user = userEvent.setup();
    const { fetchMock, onClose } = setup('CERVAICAL_REVIEWER', [doc(11, []), doc(12, [])]);
    expect(await screen.findByText('Kavya Reddy')).toBeInTheDocument();
    const save = await screen.findByTestId('review-save');
    await user.click(save);
    expect(await screen.findAllByText(CERVICAL_MESSAGES.reviewStatusRequired)).toHaveLength(2);
    expect(sent(fetchMock, 'POST')).toHaveLength(0);
    const valid = screen.getByTestId('review-form-11:new');
    await user.click(within(valid).getByRole('radio', { name: 'Valid' }));
    await user.click(within(valid).getByRole('checkbox', { name: 'Image in focus *' }));
    // Issue 23.5: an Invalid photo asks for no quality (no asterisk, a note) and saves without them.
    const invalid = screen.getByTestId('review-form-12:new');
    await user.click(within(invalid).getByRole('radio', { name: 'Invalid' }));
    expect(within(invalid).getByRole('checkbox', { name: 'Image in focus' })).not.toBeChecked();
    expect(within(invalid).getByText(CERVICAL_MESSAGES.invalidNeedsNoAnswers)).toBeInTheDocument();
    await user.click(within(invalid).getByRole('checkbox', { name: 'Acetowhite lesion' }));
    await user.click(save);
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    const posts = sent(fetchMock, 'POST');
    expect(posts.map((p) => p.body)).toEqual([
      { document: 11, review_status: 'VALID', qualities: [{ quality: 1, answer: true }], clinical_finding: [] },
      { document: 12, review_status: 'IN_VALID', qualities: [], clinical_finding: [{ clinical_finding: 1, answer: true }] },
    ]);
  });

  it('still asks a Valid review for its required quality', async () => {
    const user = userEvent.setup();
    const { fetchMock } = setup('CERVAICAL_REVIEWER', [doc(11, [])]);
    const form = await screen.findByTestId('review-form-11:new');
    await user.click(within(form).getByRole('radio', { name: 'Valid' }));
    await user.click(screen.getByTestId('review-save'));
    expect(await within(form).findByText(CERVICAL_MESSAGES.requiredQuality('Image in focus'))).toBeInTheDocument();
    expect(sent(fetchMock, 'POST')).toHaveLength(0);
  });

  it('shows a blinded reviewer that another reviewer\'s answers are hidden', async () => {
    setup('CERVAICAL_REVIEWER', [doc(11, [], 1)], exam({ reviewer_one: { id: 99, first_name: 'O', last_name: 'P' } }));
    expect(await screen.findByTestId('review-hidden')).toBeInTheDocument();
    expect(screen.getByTestId('review-form-11:new')).toBeInTheDocument();
  });

  it('keeps a document the reviewer has reviewed read-only for them', async () => {
    setup('CERVAICAL_REVIEWER', [doc(11, [review(31, 7, 1)])], exam({ reviewer_one: { id: 7, first_name: 'A', last_name: 'R' } }));
    expect(await screen.findByTestId('review-readonly-31')).toBeInTheDocument();
    expect(screen.queryByTestId('review-save')).not.toBeInTheDocument();
  });

  it('lets an ADMIN edit an existing review and sends only the change as a PATCH', async () => {
    const user = userEvent.setup();
    const { fetchMock, onClose } = setup('ADMIN', [doc(11, [review(31, 70, 1)])]);
    const form = await screen.findByTestId('review-form-11:31');
    await user.click(within(form).getByRole('radio', { name: 'Invalid' }));
    await user.click(screen.getByTestId('review-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalledWith(true));
    const patches = sent(fetchMock, 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0]!.url).toContain('/cervaical/document-user/31/');
    expect(patches[0]!.body).toMatchObject({ id: 31, user: 70, document: 11, review_status: 'IN_VALID' });
  });

  it('gives an ORG_ADMIN the reviews to read only', async () => {
    setup('ORG_ADMIN', [doc(11, [review(31, 70, 1)])]);
    expect(await screen.findByTestId('review-readonly-31')).toBeInTheDocument();
    expect(screen.queryByTestId('review-save')).not.toBeInTheDocument();
  });
});
