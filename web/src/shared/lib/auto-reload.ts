import { AUTO_RELOAD_AFTER_MS } from '@/shared/config/constants';

/** Options of `installAutoReload`; every field has a production default. */
export interface AutoReloadOptions {
  /** When the page loaded (ms since epoch). */
  loadedAt?: number;
  now?: () => number;
  reload?: () => void;
  win?: Window;
  doc?: Document;
}

/**
 * Reloads the page when the tab becomes visible or the window gets focus again more than
 * AUTO_RELOAD_AFTER_MS after it loaded (spec §2). Reloads at most once. Returns uninstall.
 */
export function installAutoReload({
  loadedAt = Date.now(),
  now = Date.now,
  win = window,
  doc = win.document,
  reload = () => win.location.reload(),
}: AutoReloadOptions = {}): () => void {
  let reloading = false;
  const check = () => {
    if (reloading || now() - loadedAt <= AUTO_RELOAD_AFTER_MS) return;
    reloading = true;
    reload();
  };
  const onVisibilityChange = () => {
    if (doc.visibilityState === 'visible') check();
  };
  doc.addEventListener('visibilitychange', onVisibilityChange);
  win.addEventListener('focus', check);
  return () => {
    doc.removeEventListener('visibilitychange', onVisibilityChange);
    win.removeEventListener('focus', check);
  };
}
