/**
 * Lazy pages and slots: a module loaded on first use (its own chunk), rendered once its
 * messages for the current language are registered (`messagesReady`), so it never
 * flashes untranslated.
 */
import { createElement, lazy, useState, type ComponentType } from 'react';

/** What a lazily loaded module gives: its component and, if it has its own texts, their readiness. */
export type LazyModule<K extends string, C> = Record<K, C> & { messagesReady?: Promise<void> };

/**
 * `load().then(m => m[name])`, once, after the module's messages are ready. `preload()`
 * starts it early (a screen fetches all its slots at once); a component mounted after
 * its code has arrived renders at once, without suspending for a turn.
 */
export function lazyComponent<K extends string, P extends object>(load: () => Promise<LazyModule<K, ComponentType<P>>>, name: K) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(async (module) => {
      await module.messagesReady;
      loaded = module[name];
      return loaded;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Component(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the component itself
    // would remount what it rendered.
    const [ready] = useState(() => loaded);
    return createElement(ready ?? Lazy, props);
  }
  Component.displayName = `Lazy(${name})`;
  return { Component, preload };
}

/** A page component loaded on first visit. */
export function lazyPage<K extends string>(load: () => Promise<LazyModule<K, ComponentType>>, name: K): ComponentType {
  return lazyComponent(load, name).Component;
}
