import type { ReactNode } from 'react';
import './SegmentedControl.css';

/** One choice of a {@link SegmentedControl}. */
export interface Segment<V extends string> {
  value: V;
  label: ReactNode;
  /** `data-testid` of its button. */
  testId?: string;
}

export interface SegmentedControlProps<V extends string> {
  segments: readonly Segment<V>[];
  /** The chosen value (none pressed when it matches no segment). */
  value: V | undefined;
  onChange: (value: V) => void;
  /** The group's accessible name, or the id of the element that names it. */
  label?: string;
  labelledBy?: string;
  /** Too many segments for the width: scroll sideways (`scroll`) or wrap onto more lines (`wrap`). */
  overflow?: 'scroll' | 'wrap';
  className?: string;
  testId?: string;
}

/**
 * A row of mutually exclusive buttons (`role="group"`, each `aria-pressed`): chart ranges,
 * currency modes, filters. The pressed one looks raised.
 */
export function SegmentedControl<V extends string>({
  segments,
  value,
  onChange,
  label,
  labelledBy,
  overflow,
  className,
  testId,
}: SegmentedControlProps<V>) {
  const classes = ['segmented', overflow && `segmented--${overflow}`, className].filter(Boolean).join(' ');
  return (
    <div className={classes} role="group" aria-label={label} aria-labelledby={labelledBy} data-testid={testId}>
      {segments.map((segment) => (
        <button
          key={segment.value}
          type="button"
          className="segmented__button"
          aria-pressed={segment.value === value}
          onClick={() => onChange(segment.value)}
          data-testid={segment.testId}
        >
          {segment.label}
        </button>
      ))}
    </div>
  );
}
