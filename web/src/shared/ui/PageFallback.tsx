import './PageFallback.css';

/**
 * Placeholder while a route's code loads. It reserves the viewport height so the page
 * that replaces it does not push anything around.
 */
export function PageFallback() {
  return (
    <div className="page-fallback" aria-busy="true">
      <span className="page-fallback__bar page-fallback__bar--title" />
      <span className="page-fallback__bar" />
      <span className="page-fallback__bar page-fallback__bar--short" />
    </div>
  );
}
