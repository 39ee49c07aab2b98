/**
 * Lazy pages and slots: a module loaded on first use (its own chunk), rendered once its
 * messages for the current language are registered (`messagesReady`), so it never
 * flashes untranslated.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** What a lazily loaded module gives: its component and, if it has its own texts, their readiness. */
export type LazyModule<K extends string, C> = Record<K, C> & { messagesReady?: Promise<void> };

/** `load().then(m => m[name])`, once, after the module's messages are ready. */
export function lazyComponent<K extends string, P extends object>(load: () => Promise<LazyModule<K, ComponentType<P>>>, name: K) {
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (loading ??= load().then(async (module) => {
      await module.messagesReady;
      return module[name];
    }));
  const Component: LazyExoticComponent<ComponentType<P>> = lazy(() => preload().then((component) => ({ default: component })));
  return { Component, preload };
}

/** A page component loaded on first visit. */
export function lazyPage<K extends string>(load: () => Promise<LazyModule<K, ComponentType>>, name: K): ComponentType {
  return lazyComponent(load, name).Component;
}
