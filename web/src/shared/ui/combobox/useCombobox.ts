/**
 * The base of every combobox (a text box with a list of options, WAI-ARIA's
 * "combobox with listbox popup"): the ids and ARIA wiring, the highlighted option, the
 * keys (`useCombobox`), and text still being composed by an input method
 * (`useComposedText`; kept apart because what is listed depends on the text).
 *
 * Keys: ↓/↑ move (wrapping), Home/End jump once something is highlighted, Enter chooses
 * the highlighted option (or the first, when `enterChoosesFirst`) and never submits a
 * form, Escape lets go of the highlight first and then clears the text. Text still being
 * composed by an input method (Korean syllables) is not `committed` until the
 * composition ends, and keys that finish a composition belong to the input method.
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type CompositionEvent,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type LiHTMLAttributes,
  type RefObject,
} from 'react';

/** A text box's text, kept apart from what an input method is still composing. */
export interface ComposedText {
  /** The box's text, as shown. */
  text: string;
  /** The text as of the last moment no composition was in progress: what to search. */
  committed: string;
  /** Empties the box. */
  clear(): void;
  /** Whether an input method is composing now. */
  isComposing(): boolean;
  /** Spread on the `<input>`. */
  inputProps: Pick<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'onCompositionStart' | 'onCompositionEnd'> & {
    ref: RefObject<HTMLInputElement | null>;
  };
}

/**
 * The text of a box where an input method composes (Korean): `committed` follows the
 * text only while nothing is being composed, and takes the composed text when the
 * composition ends.
 */
export function useComposedText(initialText = ''): ComposedText {
  const [text, setText] = useState(initialText);
  const [committed, setCommitted] = useState(initialText);
  const composing = useRef(false);
  const inputRef = useRef<HTMLInputElement | null>(null);
  return {
    text,
    committed,
    clear() {
      setText('');
      setCommitted('');
      inputRef.current?.focus();
    },
    isComposing: () => composing.current,
    inputProps: {
      ref: inputRef,
      value: text,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        setText(event.target.value);
        if (!composing.current) setCommitted(event.target.value);
      },
      onCompositionStart: () => {
        composing.current = true;
      },
      onCompositionEnd: (event: CompositionEvent<HTMLInputElement>) => {
        composing.current = false;
        setCommitted(event.currentTarget.value);
      },
    },
  };
}

export interface UseComboboxOptions<T> {
  /** The box's text (`useComposedText`). */
  text: ComposedText;
  /** The options now listed. */
  items: readonly T[];
  /** A key that changes whenever a new list arrives: the highlight starts over then. */
  listKey: string;
  onChoose: (item: T) => void;
  /** Enter with nothing highlighted chooses the first option (default `true`). */
  enterChoosesFirst?: boolean;
}

export interface Combobox {
  /** The highlighted option's index, or -1. */
  active: number;
  /** Spread on the `<input>`. */
  inputProps: InputHTMLAttributes<HTMLInputElement> & { role: 'combobox'; ref: RefObject<HTMLInputElement | null> };
  /** Spread on the list (`<ul>`). */
  listboxProps: HTMLAttributes<HTMLUListElement> & { id: string; role: 'listbox' };
  /** Spread on the option `index` (`<li>`). */
  optionProps(index: number): LiHTMLAttributes<HTMLLIElement> & { id: string; role: 'option' };
  /** The id a label or a description can point at. */
  inputId: string;
}

/** Highlight, keys and ARIA wiring of a combobox over `text` listing `items`. */
export function useCombobox<T>({ text, items, listKey, onChoose, enterChoosesFirst = true }: UseComboboxOptions<T>): Combobox {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const [active, setActive] = useState(-1);

  // A new list starts with nothing highlighted.
  const [shownKey, setShownKey] = useState(listKey);
  if (shownKey !== listKey) {
    setShownKey(listKey);
    setActive(-1);
  }

  useEffect(() => {
    if (active >= 0) document.getElementById(`${id}-option-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, id]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Keys that finish a composition belong to the input method (Enter would choose too early).
    if (text.isComposing() || event.nativeEvent.isComposing) return;
    const count = items.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (count) setActive((i) => (i + 1) % count);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (count) setActive((i) => (i <= 0 ? count - 1 : i - 1));
        break;
      case 'Home':
      case 'End':
        if (active < 0 || !count) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : count - 1);
        break;
      case 'Enter': {
        // Enter in the box chooses; it never submits a form.
        event.preventDefault();
        const target = active >= 0 ? items[active] : enterChoosesFirst ? items[0] : undefined;
        if (target !== undefined) onChoose(target);
        break;
      }
      case 'Escape':
        if (active >= 0) {
          event.preventDefault();
          setActive(-1);
        } else if (text.text) {
          event.preventDefault();
          text.clear();
        }
        break;
    }
  };

  return {
    active,
    inputId,
    inputProps: {
      ...text.inputProps,
      id: inputId,
      type: 'search',
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': items.length > 0,
      'aria-controls': listId,
      'aria-activedescendant': active >= 0 ? optionId(active) : undefined,
      autoComplete: 'off',
      autoCorrect: 'off',
      autoCapitalize: 'off',
      spellCheck: false,
      onKeyDown,
    },
    listboxProps: { id: listId, role: 'listbox' },
    optionProps: (index: number) => ({
      id: optionId(index),
      role: 'option',
      'aria-selected': index === active,
      // Keep the focus in the box; the click still chooses.
      onMouseDown: (event) => event.preventDefault(),
      onClick: () => {
        const item = items[index];
        if (item !== undefined) onChoose(item);
      },
      onMouseMove: index === active ? undefined : () => setActive(index),
    }),
  };
}
