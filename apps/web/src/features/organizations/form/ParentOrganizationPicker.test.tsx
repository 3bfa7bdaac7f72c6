import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TUserType } from '@sc/shared/roles';
import { OrganizationFormDialog } from './OrganizationFormDialog.tsx';
import { makeOrganization, mockFormApi, renderAs } from './formTestUtils.tsx';

const LIST = '/api/v1/organization/';
const sleep = (ms: number) => act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));

/** The parent picker's searches: calls of `GET organization/` (not of one organization). */
function listCalls(fetchMock: ReturnType<typeof mockFormApi>) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://localhost'), method: init?.method ?? 'GET' }))
    .filter(({ url, method }) => method === 'GET' && url.pathname === LIST)
    .map(({ url }) => Object.fromEntries(url.searchParams));
}

const pickerInput = () => screen.getByTestId('org-parent') as HTMLInputElement;

describe('ParentOrganizationPicker', () => {
  it.each<TUserType>(['ADMIN', 'SUB_ADMIN'])(
    'does not search again and again while a %s edits a sub-organization (the label stays put)',
    async (role) => {
      const org = makeOrganization({ parent: 9 });
      const fetchMock = mockFormApi({ [`GET /api/v1/organization/${org.id}/`]: { body: org } });
      renderAs(role, <OrganizationFormDialog opened onClose={() => {}} organizationId={org.id} />);
      await waitFor(() => expect(pickerInput()).toHaveValue('North Distributor (India)'));
      await sleep(600);
      expect(listCalls(fetchMock)).toEqual([]);
      expect(pickerInput()).toHaveValue('North Distributor (India)');
    },
  );

  it('asks nothing when it opens, and searches 100 ms after the first character typed', async () => {
    const fetchMock = mockFormApi();
    const user = userEvent.setup();
    renderAs('ADMIN', <OrganizationFormDialog opened onClose={() => {}} />);
    await user.click(pickerInput());
    await sleep(300);
    expect(listCalls(fetchMock)).toEqual([]);
    expect(screen.getByText('Type a distributor’s name')).toBeInTheDocument();

    await user.type(pickerInput(), 'No');
    expect(await screen.findByRole('option', { name: 'North Distributor (India)' })).toBeInTheDocument();
    await sleep(400);
    // One search for the settled text, from the read replica, among distributors only.
    expect(listCalls(fetchMock)).toEqual([{ search: 'No', can_create_organization: 'true', limit: '10', using_read_db: 'true' }]);
  });

  it('does not search for the chosen option’s label', async () => {
    const fetchMock = mockFormApi();
    const user = userEvent.setup();
    renderAs('SUB_ADMIN', <OrganizationFormDialog opened onClose={() => {}} />);
    await user.type(pickerInput(), 'North');
    await user.click(await screen.findByRole('option', { name: 'North Distributor (India)' }));
    await waitFor(() => expect(pickerInput()).toHaveValue('North Distributor (India)'));
    await sleep(500);
    expect(listCalls(fetchMock).map((q) => q.search)).toEqual(['North']);
    expect(pickerInput()).toHaveValue('North Distributor (India)');
  });
});
