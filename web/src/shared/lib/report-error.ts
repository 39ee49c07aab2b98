/**
 * Where caught errors go (an error boundary's catch, with its component stack). The app
 * installs the error recorder here at start (`app/observability`); until then, errors
 * wait (a few, in order) and are handed over once it is installed. Keeps shared code
 * (`ErrorBoundary`) independent of the recorder.
 */
export interface ErrorDetails {
  componentStack?: string | undefined;
}

export type ErrorReporter = (error: unknown, details?: ErrorDetails) => void;

/** Errors kept while no reporter is installed; older ones are dropped beyond this. */
const MAX_WAITING = 20;

let reporter: ErrorReporter | undefined;
const waiting: [unknown, ErrorDetails | undefined][] = [];

/** Installs the reporter and hands it what waited. */
export function setErrorReporter(next: ErrorReporter): void {
  reporter = next;
  for (const [error, details] of waiting.splice(0)) next(error, details);
}

/** Reports a caught error (kept until a reporter is installed). */
export function reportError(error: unknown, details?: ErrorDetails): void {
  if (reporter) return reporter(error, details);
  waiting.push([error, details]);
  if (waiting.length > MAX_WAITING) waiting.shift();
}
