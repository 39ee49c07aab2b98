import { useId, type ReactNode } from 'react';
import './card.css';

export interface SectionCardProps {
  /** The section's heading (an `h2` that names the section). */
  title: ReactNode;
  /** Beside the heading: a badge, a "manage" link. */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Without the card's surface (a strip of cards of its own, like the indices). */
  plain?: boolean;
  testId?: string;
}

/**
 * A titled section on a card (`<section>` named by its `h2`): what home, the stock page
 * and the portfolio screens are built of, whichever area fills it.
 */
export function SectionCard({ title, actions, children, className, plain = false, testId }: SectionCardProps) {
  const titleId = useId();
  return (
    <section
      className={[plain ? '' : 'card', 'section-card', className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <div className="section-card__head">
        <h2 id={titleId} className="section-card__title">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
