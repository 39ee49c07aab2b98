import type { RrwebPlayerConstructor } from './rrweb';

export type { RrwebPlayer, RrwebPlayerConstructor } from './rrweb';

let loading: Promise<RrwebPlayerConstructor> | undefined;

/** The rrweb player's class, loaded on first use (a chunk of its own); a failed load is retried next time. */
export function loadPlayer(): Promise<RrwebPlayerConstructor> {
  loading ??= import('./rrweb').then((m) => m.RrwebPlayerClass);
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
