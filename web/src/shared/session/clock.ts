/**
 * The server's clock as seen from the browser (spec §5, "optional correction"): the
 * offset `serverNow - browserNow` in ms. The API client measures it from the `Date`
 * header of every answer (`./clock-measure`, loaded with the client); this module only
 * holds the result, so the first page stays small.
 */

let offset = 0;
const listeners = new Set<() => void>();

/** `serverNow - browserNow` in ms; 0 until an answer was measured. */
export function serverClockOffset(): number {
  return offset;
}

/** Sets the offset (from `./clock-measure`); listeners run when it changes. */
export function setServerClockOffset(ms: number): void {
  if (ms === offset) return;
  offset = ms;
  listeners.forEach((l) => l());
}

/** Calls `listener` whenever the offset changes. Returns the unsubscribe function. */
export function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
