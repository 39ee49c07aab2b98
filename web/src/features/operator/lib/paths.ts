/** The console's routes (under `/operator`, one lazy chunk: `ObserveConsole`). */
export const OBSERVE_ROOT = '/operator';

/** A session's page, optionally at a replay position (`?t=<ms>`, sought on load). */
export function sessionPath(secureId: string, offsetMs?: number | null): string {
  const base = `${OBSERVE_ROOT}/sessions/${encodeURIComponent(secureId)}`;
  return offsetMs != null && Number.isFinite(offsetMs) && offsetMs >= 0 ? `${base}?t=${Math.round(offsetMs)}` : base;
}

export const errorGroupPath = (id: number) => `${OBSERVE_ROOT}/errors/${id}`;

export const tracePath = (traceId: string) => `${OBSERVE_ROOT}/traces/${traceId}`;

/** `?t=` of a session link: a whole number of milliseconds ≥ 0, else `undefined`. */
export function offsetParam(value: string | null): number | undefined {
  if (value === null || !/^\d{1,12}$/.test(value)) return undefined;
  return Number(value);
}
