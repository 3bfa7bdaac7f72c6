import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { otherCountryMessage } from '@sc/shared/phone';
import { MESSAGES } from '@sc/shared/validation';
import { renderWithProviders } from '../test/render.tsx';
import { PhoneInput } from './PhoneInput.tsx';

function Harness({ country = 'IN', initial = '' }: { country?: string; initial?: string }) {
  const [value, setValue] = useState(initial);
  const [chosen, setChosen] = useState(country);
  return (
    <>
      <PhoneInput label="Mobile" country={chosen} value={value} onChange={setValue} testId="phone" />
      <button type="button" onClick={() => setChosen('GB')}>
        United Kingdom
      </button>
    </>
  );
}

describe('PhoneInput (issue 23.3)', () => {
  it('takes a pasted number with +91 and spaces, and drops letters', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const input = screen.getByTestId('phone');
    await user.click(input);
    await user.paste('Tel: +91 98765 43210');
    expect(input).toHaveValue('+91 98765 43210');
    await user.tab();
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('accepts spaces, hyphens and brackets typed in a national number', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const input = screen.getByTestId('phone');
    await user.type(input, '(98765) 432-10');
    expect(input).toHaveValue('(98765) 432-10');
    await user.tab();
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the chosen country’s dial code', () => {
    renderWithProviders(<Harness />);
    expect(screen.getByTestId('phone-dial')).toHaveTextContent('+91');
  });

  it('says a wrong number on the field when it is left, and clears it while typing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const input = screen.getByTestId('phone');
    await user.type(input, '98765 4321');
    expect(screen.queryByText(MESSAGES.invalidPhone)).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByText(MESSAGES.invalidPhone)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.type(input, '0');
    expect(screen.queryByText(MESSAGES.invalidPhone)).not.toBeInTheDocument();
  });

  it('says so when the +code is another country’s, and not once that country is chosen', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const input = screen.getByTestId('phone');
    await user.click(input);
    await user.paste('+44 7911 123456');
    await user.tab();
    expect(screen.getByText(otherCountryMessage('+44', '+91'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'United Kingdom' }));
    expect(screen.queryByText(otherCountryMessage('+44', '+91'))).not.toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
  });
});
