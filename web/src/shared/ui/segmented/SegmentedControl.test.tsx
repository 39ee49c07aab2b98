import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SegmentedControl } from './SegmentedControl';

function Ranges() {
  const [range, setRange] = useState<'1D' | '1W' | '1M'>('1W');
  return (
    <SegmentedControl
      label="Period"
      segments={[
        { value: '1D', label: '1 day' },
        { value: '1W', label: '1 week' },
        { value: '1M', label: '1 month' },
      ]}
      value={range}
      onChange={setRange}
    />
  );
}

describe('SegmentedControl', () => {
  it('is a named group of toggle buttons, exactly one pressed, following the choice', () => {
    render(<Ranges />);
    const group = screen.getByRole('group', { name: 'Period' });
    const pressed = () => within(group).getAllByRole('button', { pressed: true }).map((b) => b.textContent);
    expect(pressed()).toEqual(['1 week']);
    fireEvent.click(within(group).getByRole('button', { name: '1 month' }));
    expect(pressed()).toEqual(['1 month']);
  });
});
