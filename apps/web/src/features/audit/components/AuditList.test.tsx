import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_GROUP_LABELS, AUDIT_TARGET_ID_NEEDS_TYPE } from '@sc/shared/audit';
import type { TUserType } from '@sc/shared/roles';
import { makeUser, mockFetch } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { renderScanRoutes } from '../../scans/test/scanFixtures.tsx';
import { AuditPage } from '../pages/AuditPage.tsx';
import { auditPage, auditRow } from '../test/auditFixtures.ts';
import { ZAuditListParams, auditQuery, targetIdError } from './AuditList.tsx';

const LIST = '/api/v1/audit/';

function setup(role: TUserType, path = '/audit', page = auditPage([auditRow(30), auditRow(29)])) {
  const fetchMock = mockFetch({ [`GET ${LIST}`]: { body: page } });
  const view = renderScanRoutes(makeUser(role), path, { '/audit': <AuditPage /> });
  return { fetchMock, ...view };
}

const urlParams = (router: { state: { location: { search: string } } }) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search));

afterEach(() => vi.unstubAllGlobals());

describe('AuditList', () => {
  it('sends every filter of the URL to the API, the period on the creation date', async () => {
    const { fetchMock } = setup(
      'ADMIN',
      '/audit?group=patients&actor=12&target_type=patient&target_id=101&organization=3&outcome=failure&period=custom_range&from=2026-11-01&to=2026-11-20&before=500',
    );
    await screen.findByText('Patient 130');
    expect(lastQuery(fetchMock, LIST)).toMatchObject({
      group: 'patients',
      actor: '12',
      target_type: 'patient',
      target_id: '101',
      organization: '3',
      outcome: 'failure',
      created_after: '2026-11-01',
      created_before: '2026-11-20',
      before: '500',
    });
  });

  it('writes a chosen group to the URL and goes back to the newest rows', async () => {
    const { fetchMock, router } = setup('ADMIN', '/audit?before=500');
    await screen.findByText('Patient 130');
    await userEvent.click(screen.getByTestId('audit-group-filter'));
    await userEvent.click(await screen.findByRole('option', { name: AUDIT_GROUP_LABELS.sign_in }));
    await waitFor(() => expect(urlParams(router)).toEqual({ group: 'sign_in' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)?.group).toBe('sign_in'));
    expect(lastQuery(fetchMock, LIST)?.before).toBeUndefined();
  });

  it('pages with Older and Newer from the answer’s next and previous links', async () => {
    const { fetchMock, router } = setup(
      'ADMIN',
      '/audit',
      auditPage([auditRow(30), auditRow(29)], {
        count: 1000,
        count_capped: true,
        next: 'http://localhost/api/v1/audit/?before=29&limit=20',
        previous: null,
      }),
    );
    await screen.findByText('Patient 130');
    expect(screen.getByTestId('list-total')).toHaveTextContent('More than 1000 items');
    expect(screen.getByTestId('list-newer')).toBeDisabled();
    expect(screen.getByTestId('list-newest')).toBeDisabled();
    await userEvent.click(screen.getByTestId('list-older'));
    await waitFor(() => expect(urlParams(router)).toEqual({ before: '29' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)?.before).toBe('29'));
    expect(screen.getByTestId('list-newest')).toBeEnabled();
  });

  it('goes to the newer page with after and leaves before out', async () => {
    const { fetchMock, router } = setup(
      'ADMIN',
      '/audit?before=29',
      auditPage([auditRow(28)], { count: 1, previous: '/api/v1/audit/?after=28', next: null }),
    );
    await screen.findByText('Patient 128');
    expect(screen.getByTestId('list-older')).toBeDisabled();
    await userEvent.click(screen.getByTestId('list-newer'));
    await waitFor(() => expect(urlParams(router)).toEqual({ after: '28' }));
    await waitFor(() => expect(lastQuery(fetchMock, LIST)).toMatchObject({ after: '28' }));
    expect(lastQuery(fetchMock, LIST)?.before).toBeUndefined();
  });

  it('shows who acted as whom, the readable action and the address', async () => {
    setup(
      'ADMIN',
      '/audit',
      auditPage([
        auditRow(5, {
          actor: { id: 9, name: 'Ravi Kumar', user_type: 'ORG_ADMIN' },
          impersonator: { id: 7, name: 'Asha Rao', user_type: 'ADMIN' },
        }),
      ]),
    );
    const row = (await screen.findByText('Patient 105')).closest('tr')!;
    expect(row).toHaveTextContent('Asha RaoSuper Admin');
    expect(within(row).getByTestId('audit-as')).toHaveTextContent('as Ravi Kumar (ORG Admin)');
    expect(row).toHaveTextContent('Patient updated');
    expect(row).toHaveTextContent('10.0.0.5');
  });

  it('gives ADMIN the organization filter and an ORG_ADMIN none', async () => {
    setup('ADMIN');
    await screen.findByText('Patient 130');
    expect(screen.getByTestId('audit-organization-filter')).toBeInTheDocument();
    expect(screen.getByTestId('audit-retention')).toBeInTheDocument();
  });

  it('leaves the organization filter and the retention out for an ORG_ADMIN', async () => {
    setup('ORG_ADMIN');
    await screen.findByText('Patient 130');
    expect(screen.queryByTestId('audit-organization-filter')).not.toBeInTheDocument();
    expect(screen.queryByTestId('audit-retention')).not.toBeInTheDocument();
  });

  it('says on the field that a target id needs its type, and does not send it', async () => {
    const { fetchMock } = setup('ADMIN', '/audit?target_id=101');
    await screen.findByText('Patient 130');
    expect(screen.getByText(AUDIT_TARGET_ID_NEEDS_TYPE)).toBeInTheDocument();
    expect(lastQuery(fetchMock, LIST)?.target_id).toBeUndefined();
  });

  it('opens a row’s details with its changes', async () => {
    setup('ADMIN');
    await userEvent.click(await screen.findByText('Patient 130'));
    const dialog = await screen.findByTestId('audit-row-dialog');
    const change = within(dialog).getByTestId('audit-change-mobile');
    expect(change).toHaveTextContent('+91-9000000001');
    expect(change).toHaveTextContent('+91-9000000002');
    expect(within(dialog).getByTestId('audit-row-facts')).toHaveTextContent('Mozilla/5.0');
  });
});

describe('auditQuery', () => {
  it('leaves out the defaults, and a cursor’s partner', () => {
    const params = ZAuditListParams.parse({ before: '40', after: '50' });
    expect(auditQuery(params)).toEqual({ limit: params.limit, before: 40 });
  });

  it('falls back on a hand-edited URL instead of breaking', () => {
    const params = ZAuditListParams.parse({ group: 'nope', outcome: 'maybe', actor: '-3', before: 'x', target_type: 'car' });
    expect(params).toMatchObject({ group: undefined, outcome: undefined, actor: undefined, before: undefined, target_type: undefined });
  });

  it('checks a target id with the API’s rule', () => {
    expect(targetIdError({ target_type: 'patient', target_id: '12 3' })).toBe('Enter a valid id.');
    expect(targetIdError({ target_type: 'patient', target_id: '123' })).toBeUndefined();
  });
});
