import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { INTEGER_MESSAGE, maxValueMessage, minValueMessage } from '@sc/shared/numbers';
import { renderWithProviders } from '../test/render.tsx';
import { NumberField, type NumberFieldProps } from './NumberField.tsx';

function Harness(props: Omit<NumberFieldProps, 'value' | 'onChange'>) {
  const [value, setValue] = useState<number | string>('');
  return (
    <>
      <NumberField {...props} value={value} onChange={setValue} data-testid="n" />
      <output data-testid="value">{JSON.stringify(value)}</output>
      <button type="button">elsewhere</button>
    </>
  );
}

async function typeAndLeave(text: string, props: Omit<NumberFieldProps, 'value' | 'onChange'>) {
  const user = userEvent.setup();
  renderWithProviders(<Harness {...props} />);
  await user.type(screen.getByTestId('n'), text);
  await user.click(screen.getByRole('button', { name: 'elsewhere' }));
  return user;
}

describe('NumberField', () => {
  it('keeps a negative number as typed and says it is below the range', async () => {
    await typeAndLeave('-5', { min: 12, max: 120, integer: true, rangeMessage: 'Age must be between 12 and 120.' });
    expect(screen.getByTestId('n')).toHaveValue('-5');
    expect(screen.getByTestId('value')).toHaveTextContent('-5');
    expect(screen.getByText('Age must be between 12 and 120.')).toBeInTheDocument();
  });

  it('does not clamp a number above the range on blur', async () => {
    await typeAndLeave('250', { min: 12, max: 120, integer: true });
    expect(screen.getByTestId('n')).toHaveValue('250');
    expect(screen.getByText(maxValueMessage(120))).toBeInTheDocument();
  });

  it('keeps a decimal point where whole numbers are asked for and says so', async () => {
    await typeAndLeave('12.5', { min: 0, integer: true });
    expect(screen.getByTestId('n')).toHaveValue('12.5');
    expect(screen.getByText(INTEGER_MESSAGE)).toBeInTheDocument();
  });

  it('uses the per-side messages of a rule, and clears the message once the value is back in range', async () => {
    const user = await typeAndLeave('-3', { min: 0, max: 10, integer: true, rangeMessage: { below: 'Zero or more.' } });
    expect(screen.getByTestId('n')).toHaveValue('-3');
    expect(screen.getByText('Zero or more.')).toBeInTheDocument();
    await user.clear(screen.getByTestId('n'));
    await user.type(screen.getByTestId('n'), '3');
    expect(screen.queryByText('Zero or more.')).not.toBeInTheDocument();
    expect(screen.queryByText(minValueMessage(0))).not.toBeInTheDocument();
  });

  it('says nothing while the field is being typed in for the first time', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness min={12} max={120} />);
    await user.type(screen.getByTestId('n'), '1');
    expect(screen.queryByText(minValueMessage(12))).not.toBeInTheDocument();
  });
});
