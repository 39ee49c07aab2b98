import { DELAYED_SCRIPT_MS } from '@/shared/config/constants';

/** Interactions that load the delayed scripts early. */
const INTERACTIONS = ['keydown', 'mousedown', 'mousemove', 'wheel', 'touchstart'] as const;

/**
 * Loads every `<script delay="URL"></script>` (which must be empty, so that the browser
 * does not consider it started) by setting its `src` to the `delay` value, after
 * DELAYED_SCRIPT_MS or on the first keyboard, mouse, wheel or touch interaction, whichever
 * comes first (spec §2). Fires once. Returns uninstall.
 */
export function installDelayedScripts(doc: Document = document, win: Window = window): () => void {
  const uninstall = () => {
    win.clearTimeout(timer);
    INTERACTIONS.forEach((type) => win.removeEventListener(type, load));
  };
  function load() {
    uninstall();
    doc.querySelectorAll<HTMLScriptElement>('script[delay]').forEach((script) => {
      const src = script.getAttribute('delay');
      script.removeAttribute('delay');
      if (src) script.src = src;
    });
  }
  const timer = win.setTimeout(load, DELAYED_SCRIPT_MS);
  INTERACTIONS.forEach((type) => win.addEventListener(type, load, { passive: true }));
  return uninstall;
}
