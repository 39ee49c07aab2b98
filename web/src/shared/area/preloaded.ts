/**
 * A component whose code is fetched in the background once the page has loaded (not in
 * the first page's bundle, and not competing with what the first screen loads), and
 * rendered without suspending once it has arrived: nothing (a closed menu, say) until
 * then. For small pieces the first screen may need at any tap, where a `lazy`
 * component's suspense would hold the tap back.
 */
import { createElement, useSyncExternalStore, type ComponentType } from 'react';

export function preloadedComponent<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  const listeners = new Set<() => void>();
  void afterLoad()
    .then(load)
    .then(
      (module) => {
        loaded = module[name];
        for (const listener of listeners) listener();
      },
      () => undefined,
    );
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const snapshot = () => loaded;
  function Preloaded(props: P) {
    const Component = useSyncExternalStore(subscribe, snapshot, snapshot);
    return Component ? createElement(Component, props) : null;
  }
  Preloaded.displayName = `Preloaded(${name})`;
  return Preloaded;
}

/** Resolves once the document has loaded (at once if it has). */
function afterLoad(): Promise<void> {
  if (typeof document === 'undefined' || document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => addEventListener('load', () => resolve(), { once: true }));
}
