/**
 * Measures the server-clock offset (`./clock`) from the `Date` header of API answers.
 *
 * `Date` has one-second resolution (the server's time, rounded down to the second), and
 * the answer was made somewhere between sending and receiving. One answer therefore only
 * tells that the offset lies in `[date - receivedAt, date + 1000 - sentAt]`. Successive
 * answers narrow that range: each new range is intersected with the previous one
 * (widened by 100 ppm of the time since, for drift). When they do not overlap, the
 * browser's clock was changed: the latest measurement alone wins. The offset is the
 * middle of the range, so it is off by at most half the range (≤ 0.5 s plus half the
 * round trip for one answer, less after several).
 */
import { setServerClockOffset } from './clock';

/** Allowed clock drift between two measurements, as a fraction of the time between them. */
const DRIFT = 1e-4;

let low = 0;
let high = 0;
let measuredAt: number | undefined;

/**
 * Records the `Date` header of an answer to a request sent at `sentAt` and received at
 * `receivedAt` (browser ms). Ignores a missing or unparsable header.
 */
export function recordServerDate(date: string | null | undefined, sentAt: number, receivedAt: number): void {
  const server = date ? Date.parse(date) : NaN;
  if (Number.isNaN(server) || receivedAt < sentAt) return;
  let lo = server - receivedAt;
  let hi = server + 1000 - sentAt;
  if (measuredAt !== undefined) {
    const slack = Math.abs(receivedAt - measuredAt) * DRIFT;
    const l = Math.max(lo, low - slack);
    const h = Math.min(hi, high + slack);
    if (l <= h) {
      lo = l;
      hi = h;
    }
  }
  low = lo;
  high = hi;
  measuredAt = receivedAt;
  setServerClockOffset(Math.round((lo + hi) / 2));
}

/** The range the offset is known to lie in, `undefined` before the first answer (tests, diagnostics). */
export function clockRange(): { low: number; high: number } | undefined {
  return measuredAt === undefined ? undefined : { low, high };
}

/** Forgets every measurement (tests). */
export function resetClock(): void {
  low = high = 0;
  measuredAt = undefined;
  setServerClockOffset(0);
}
