import './card.css';

export interface SectionErrorProps {
  message: string;
  retryLabel: string;
  onRetry: () => void;
}

/** A section whose data did not load: a short line and a retry (announced). */
export function SectionError({ message, retryLabel, onRetry }: SectionErrorProps) {
  return (
    <div className="section-card__error" role="alert">
      <span>{message}</span>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {retryLabel}
      </button>
    </div>
  );
}
