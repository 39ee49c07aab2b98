import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigationType, type NavigationType } from 'react-router';
import { SCROLL_RESTORE_DELAY_MS } from '@/shared/config/constants';

/** A window scroll offset. */
export interface ScrollPosition {
  x: number;
  y: number;
}

/** Scroll positions per history entry, in memory. */
export interface ScrollMemory {
  /** Position last recorded for the entry `key`. */
  get(key: string): ScrollPosition | undefined;
  /** Records the window's position for the current entry (runs on every `scroll`). */
  record(): void;
  /**
   * Route change to entry `key`. The position of the page being left is already saved: it
   * is recorded on every scroll, so the new page's shorter content cannot clamp it. POP restores the saved
   * position of `key` after SCROLL_RESTORE_DELAY_MS; PUSH/REPLACE scroll to the top, except
   * when `samePage` (only the query changed, e.g. a modal route opened): the page stays put.
   * Returns a cancel for the pending restore.
   */
  navigate(key: string, type: `${NavigationType}`, samePage?: boolean): () => void;
  /** Records on `scroll` and sets `history.scrollRestoration = 'manual'`. Returns uninstall. */
  install(): () => void;
}

/** Scroll save/restore of spec §2, independent of React. */
export function createScrollMemory(win: Window = window): ScrollMemory {
  const positions = new Map<string, ScrollPosition>();
  let currentKey: string | undefined;

  const memory: ScrollMemory = {
    get: (key) => positions.get(key),
    record() {
      if (currentKey !== undefined) positions.set(currentKey, { x: win.scrollX, y: win.scrollY });
    },
    navigate(key, type, samePage = false) {
      currentKey = key;
      if (type !== 'POP' && samePage) {
        positions.set(key, { x: win.scrollX, y: win.scrollY });
        return () => {};
      }
      if (type !== 'POP') {
        win.scrollTo(0, 0);
        positions.set(key, { x: 0, y: 0 });
        return () => {};
      }
      const saved = positions.get(key);
      if (!saved) return () => {};
      const timer = win.setTimeout(() => win.scrollTo(saved.x, saved.y), SCROLL_RESTORE_DELAY_MS);
      return () => win.clearTimeout(timer);
    },
    install() {
      const previous = win.history.scrollRestoration;
      win.history.scrollRestoration = 'manual';
      win.addEventListener('scroll', memory.record, { passive: true });
      return () => {
        win.removeEventListener('scroll', memory.record);
        win.history.scrollRestoration = previous;
      };
    },
  };
  return memory;
}

/**
 * Saves the window's scroll position per history entry on every route change and restores
 * it SCROLL_RESTORE_DELAY_MS after back/forward navigation; other navigations start at the
 * top. Mount once, inside the router.
 */
export function useScrollRestoration(): void {
  const { key, pathname } = useLocation();
  const type = useNavigationType();
  const [memory] = useState(() => createScrollMemory());
  const lastPathname = useRef<string | undefined>(undefined);

  useEffect(() => memory.install(), [memory]);
  useLayoutEffect(() => {
    const samePage = lastPathname.current === pathname;
    lastPathname.current = pathname;
    return memory.navigate(key, type, samePage);
  }, [memory, key, type, pathname]);
}
