import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithProviders } from '../test/render.tsx';
import { TechnicianPicker, type PickedTechnician } from './TechnicianPicker.tsx';


const user = (id: number, first: string, type = 'TECHNICIAN') => ({
  id,
  first_name: first,
  last_name: 'Tech',
  username: `${first.toLowerCase()}${id}`,
  email: null,
  mobile: null,
  mobile_country_code: null,
  user_type: type,
  is_trainer: false,
  is_available_demo: false,
  is_valid: true,
  organization: 4,
  organization_data: null,
  ibe_training_status: 'CERTIFIED',
  certificate_issue_date: null,
  certificate_expiry_date: null,
  created: '2026-01-01T00:00:00Z',
});

function Harness({ organizationId, onPick }: { organizationId: number | null; onPick: (u: PickedTechnician | null) => void }) {
  const [value, setValue] = useState<number | null>(null);
  return (
    <TechnicianPicker
      organizationId={organizationId}
      userTypes={['TECHNICIAN', 'ORG_ADMIN']}
      value={value}
      onChange={(id, picked) => {
        setValue(id);
        onPick(picked);
      }}
    />
  );
}

describe('TechnicianPicker', () => {
  it('waits for an organization and asks nothing before one is chosen', () => {
    const fetchMock = mockFetch({});
    renderWithProviders(<Harness organizationId={null} onPick={vi.fn()} />);
    expect(screen.getByTestId('technician-picker')).toBeDisabled();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("searches the organization's valid users of the given types as the user types, and hands back the pick", async () => {
    const fetchMock = mockFetch({
      'GET /api/v1/organization/user/': { body: { count: 1, next: null, previous: null, results: [user(12, 'Kavya', 'ORG_ADMIN')] } },
    });
    const onPick = vi.fn();
    renderWithProviders(<Harness organizationId={4} onPick={onPick} />);
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.type(screen.getByTestId('technician-picker'), 'kav');
    await userEvent.click(await screen.findByRole('option', { name: 'Kavya Tech (kavya12)' }));
    const query = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost').searchParams;
    expect(query.get('organization_id')).toBe('4');
    expect(query.get('user_type')).toBe('TECHNICIAN,ORG_ADMIN');
    expect(query.get('is_valid')).toBe('true');
    expect(query.get('search')).toBe('kav');
    await waitFor(() => expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 12, user_type: 'ORG_ADMIN' })));
  });
});

describe('TechnicianPicker opened before typing (issue 23.16)', () => {
  it("shows the organization's first page of technicians as soon as it opens", async () => {
    const fetchMock = mockFetch({
      'GET /api/v1/organization/user/': {
        body: { count: 2, next: null, previous: null, results: [user(12, 'Asha'), user(13, 'Bina')] },
      },
    });
    const onPick = vi.fn();
    renderWithProviders(<Harness organizationId={4} onPick={onPick} />);
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId('technician-picker'));
    expect(await screen.findByRole('option', { name: 'Asha Tech (asha12)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Bina Tech (bina13)' })).toBeInTheDocument();
    const query = new URL(String(fetchMock.mock.calls.at(-1)?.[0]), 'http://localhost').searchParams;
    expect(query.get('organization_id')).toBe('4');
    expect(query.get('search') ?? '').toBe('');
    await userEvent.click(screen.getByRole('option', { name: 'Bina Tech (bina13)' }));
    await waitFor(() => expect(onPick).toHaveBeenCalledWith(expect.objectContaining({ id: 13 })));
  });
});
