import type { ReactNode } from 'react';

export interface FeatureCardProps {
  icon: ReactNode;
  title: string;
  body: string;
  badge: string;
  /** Colour theme of the icon tile. */
  tone: 'blue' | 'teal' | 'amber' | 'violet';
}

/** One upcoming area of Moat. */
export function FeatureCard({ icon, title, body, badge, tone }: FeatureCardProps) {
  return (
    <li className="feature-card card">
      <div className={`feature-card__icon feature-card__icon--${tone}`}>{icon}</div>
      <div className="feature-card__text">
        <h3 className="feature-card__title">
          {title}
          <span className="feature-card__badge">{badge}</span>
        </h3>
        <p className="feature-card__body">{body}</p>
      </div>
    </li>
  );
}
