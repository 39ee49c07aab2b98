import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useCombobox, useComposedText } from './useCombobox';

const FRUITS = ['apple', 'apricot', 'banana'];

/** The smallest combobox: the fruits starting with the committed text. */
function Fruits({ onChoose }: { onChoose: (fruit: string) => void }) {
  const text = useComposedText();
  const items = text.committed ? FRUITS.filter((f) => f.startsWith(text.committed)) : [];
  const box = useCombobox({ text, items, listKey: text.committed, onChoose });
  return (
    <>
      <label htmlFor={box.inputId}>Fruit</label>
      <input {...box.inputProps} />
      <ul {...box.listboxProps} aria-label="Fruits">
        {items.map((fruit, i) => (
          <li key={fruit} {...box.optionProps(i)}>
            {fruit}
          </li>
        ))}
      </ul>
    </>
  );
}

const input = () => screen.getByRole('combobox', { name: 'Fruit' }) as HTMLInputElement;
const key = (name: string) => fireEvent.keyDown(input(), { key: name });
const highlighted = () => screen.queryAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')?.textContent;

describe('useCombobox', () => {
  it('moves through the options with the arrows (wrapping) and chooses with Enter', () => {
    const onChoose = vi.fn();
    render(<Fruits onChoose={onChoose} />);
    fireEvent.change(input(), { target: { value: 'ap' } });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['apple', 'apricot']);
    expect(input().getAttribute('aria-expanded')).toBe('true');

    key('ArrowDown');
    expect(highlighted()).toBe('apple');
    expect(input().getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'apple' }).id);
    key('ArrowDown');
    key('ArrowDown');
    expect(highlighted()).toBe('apple');
    key('ArrowUp');
    key('Enter');
    expect(onChoose).toHaveBeenLastCalledWith('apricot');
  });

  it('chooses the first option on Enter when none is highlighted, and a clicked one', () => {
    const onChoose = vi.fn();
    render(<Fruits onChoose={onChoose} />);
    fireEvent.change(input(), { target: { value: 'b' } });
    key('Enter');
    expect(onChoose).toHaveBeenLastCalledWith('banana');
    fireEvent.click(screen.getByRole('option', { name: 'banana' }));
    expect(onChoose).toHaveBeenCalledTimes(2);
  });

  it('lets go of the highlight with Escape, then clears the text', () => {
    render(<Fruits onChoose={() => {}} />);
    fireEvent.change(input(), { target: { value: 'ap' } });
    key('ArrowDown');
    key('Escape');
    expect(highlighted()).toBeUndefined();
    expect(input().value).toBe('ap');
    key('Escape');
    expect(input().value).toBe('');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });

  it('does not list text an input method is still composing, nor take its keys', () => {
    const onChoose = vi.fn();
    render(<Fruits onChoose={onChoose} />);
    fireEvent.compositionStart(input());
    fireEvent.change(input(), { target: { value: 'ba' } });
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    key('Enter');
    expect(onChoose).not.toHaveBeenCalled();
    fireEvent.compositionEnd(input());
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['banana']);
  });
});
