import { lazy, type ComponentType } from 'react';
import { preloadedComponent } from '@/shared/area/preloaded';
import type { RouteModalProps } from '@/shared/area/types';
import { APP_AREAS } from './app-areas';

export type { RouteModalProps };

/**
 * Route modals by name: `?<name>=routeModalTrue` opens one. The areas' (`modals` of their
 * `index.ts`) and the app's own: feedback (the recorder's) and 전체 (All). Each is a
 * chunk of its own, loaded when first opened; 전체's is fetched right after start, so the
 * phone's tab bar opens it at once.
 */
export const MODALS: Readonly<Record<string, ComponentType<RouteModalProps>>> = {
  ...Object.assign({}, ...APP_AREAS.map((area) => area.modals ?? {})),
  feedback: lazy(async () => {
    const m = await import('./observability/FeedbackModal');
    await m.messagesReady;
    return { default: m.FeedbackModal };
  }),
  menu: preloadedComponent(() => import('./nav/AllMenu'), 'AllMenu'),
};

export type ModalName = string;

export const MODAL_NAMES = Object.keys(MODALS);
