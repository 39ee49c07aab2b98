/**
 * True when this tab (or web view) has no earlier entry of the app to go back to: the
 * router's history index (react-router keeps `idx` in `history.state`) is 0 or unknown.
 */
export function isAtHistoryRoot(win: Window = window): boolean {
  const state: unknown = win.history.state;
  return !(typeof state === 'object' && state !== null && Number((state as { idx?: unknown }).idx) > 0);
}
