/**
 * The host page's stack of app screens, as the Moat app keeps them: each screen is a web
 * view (a frame) at a path. NAVIGATE pushes a screen (or replaces the top one), GO_BACK at
 * a screen's first entry closes it, a tab starts a new stack.
 */

export interface Screen {
  /** Unique for the page's life (the frame's React key). */
  id: number;
  path: string;
}

export type ScreenAction =
  | { type: 'push'; path: string; replace?: boolean }
  | { type: 'pop' }
  | { type: 'reset'; path: string };

let nextId = 1;

export function screen(path: string): Screen {
  return { id: nextId++, path };
}

/** The stack after `action`; the root screen is never popped (the app stays open). */
export function screensReducer(stack: readonly Screen[], action: ScreenAction): readonly Screen[] {
  switch (action.type) {
    case 'push':
      return action.replace ? [...stack.slice(0, -1), screen(action.path)] : [...stack, screen(action.path)];
    case 'pop':
      return stack.length > 1 ? stack.slice(0, -1) : stack;
    case 'reset':
      return [screen(action.path)];
  }
}

/** How the host page frames the app, from its URL (`?bridge=off`, `?chrome=web`). */
export interface HostMode {
  /** `false`: no bridge in the frame, as in a plain browser tab (the fallbacks run). */
  bridge: boolean;
  /** `native`: the host draws the header and tab bar and tells the app so (`window.MoatApp`). */
  chrome: 'native' | 'web';
}

export function hostMode(search: string): HostMode {
  const params = new URLSearchParams(search);
  const bridge = params.get('bridge') !== 'off';
  return { bridge, chrome: bridge && params.get('chrome') !== 'web' ? 'native' : 'web' };
}

/** A web path the app may open as a screen: same origin, starting with one `/`. */
export function isScreenPath(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}
