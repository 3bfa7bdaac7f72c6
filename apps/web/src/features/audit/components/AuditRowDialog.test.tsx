import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_ROLES } from '@sc/shared/audit';
import { USER_TYPES } from '@sc/shared/roles';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { makeUser, mockFetch, renderWithProviders } from '../../../test/render.tsx';
import { lastQuery } from '../../organizations/test/organizationFixtures.tsx';
import { auditPage, auditRow } from '../test/auditFixtures.ts';
import { AuditChanges } from './AuditRowDialog.tsx';
import { RecordHistoryButton } from './RecordHistory.tsx';
import { formatValue } from './auditFormat.ts';

afterEach(() => vi.unstubAllGlobals());

describe('AuditChanges', () => {
  it('shows Field | Before | After with none as an em dash and an object as JSON', () => {
    renderWithProviders(
      <AuditChanges
        changes={[
          { field: 'email', before: null, after: 'a@b.org' },
          { field: 'consent', before: { sms: true }, after: { sms: false } },
        ]}
      />,
    );
    const table = screen.getByTestId('audit-changes');
    expect([...table.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['Field', 'Before', 'After']);
    const email = within(table).getByTestId('audit-change-email').querySelectorAll('td');
    expect(email[1]).toHaveTextContent('—');
    expect(email[2]).toHaveTextContent('a@b.org');
    expect(within(table).getByTestId('audit-change-consent').querySelectorAll('td')[1]?.textContent).toBe(
      '{\n  "sms": true\n}',
    );
  });

  it('says when no field changed', () => {
    renderWithProviders(<AuditChanges changes={[]} />);
    expect(screen.getByTestId('audit-no-changes')).toBeInTheDocument();
  });

  it('words values', () => {
    expect(formatValue(undefined)).toBe('—');
    expect(formatValue('')).toBe('—');
    expect(formatValue(false)).toBe('false');
    expect(formatValue(0)).toBe('0');
  });
});

describe('RecordHistoryButton', () => {
  it.each(USER_TYPES)('is shown to %s only when the role reads the trail', (role) => {
    renderWithProviders(
      <SessionUserContext.Provider value={makeUser(role)}>
        <RecordHistoryButton targetType="patient" targetId={101} />
      </SessionUserContext.Provider>,
    );
    if (AUDIT_ROLES.includes(role)) expect(screen.getByTestId('history-patient')).toBeInTheDocument();
    else expect(screen.queryByTestId('history-patient')).not.toBeInTheDocument();
  });

  it('lists the record’s rows newest first and opens a row’s changes', async () => {
    const fetchMock = mockFetch({
      'GET /api/v1/audit/': { body: auditPage([auditRow(2, { target_id: '101' }), auditRow(1, { target_id: '101', action: 'patient.created', changes: [] })]) },
    });
    renderWithProviders(
      <SessionUserContext.Provider value={makeUser('SUB_ADMIN')}>
        <RecordHistoryButton targetType="patient" targetId={101} />
      </SessionUserContext.Provider>,
    );
    await userEvent.click(screen.getByTestId('history-patient'));
    const table = await screen.findByTestId('record-history-table');
    expect(await within(table).findByText('Patient created')).toBeInTheDocument();
    expect(lastQuery(fetchMock, '/api/v1/audit/')).toMatchObject({ target_type: 'patient', target_id: '101' });
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => tr.textContent);
    expect(rows[0]).toContain('Patient updated');
    await userEvent.click(within(table).getByText('Patient updated'));
    expect(await screen.findByTestId('audit-change-mobile')).toBeInTheDocument();
  });
});
