/**
 * The host page's debug buttons: one per web → app action (docs/mobile-bridge.md). Each
 * builds the action here and runs it through the framed app's own bridge, so in app mode
 * the app posts it to this page, and in browser mode the app runs its browser fallback.
 */
import type { BridgeAction, BridgeActionType } from '@/shared/bridge/actions';
import { renderShareCard } from './shareCard';

/** How long the loading indicator and the dimmer stay on before the demo ends them. */
export const DEMO_MS = 1000;

/** Every action, in the order the buttons appear, with its label. */
export const DEBUG_ACTIONS: readonly { type: BridgeActionType; label: string }[] = [
  { type: 'HAPTIC_FEEDBACK', label: 'Haptic (medium)' },
  { type: 'SHARE_IMAGE', label: 'Share a card image' },
  { type: 'LOADING', label: 'Loading (1 s)' },
  { type: 'DIMMER_ON', label: 'Dimmer on (1 s)' },
  { type: 'DIMMER_OFF', label: 'Dimmer off' },
  { type: 'NAVIGATE', label: 'Navigate home' },
  { type: 'GO_BACK', label: 'Go back' },
  { type: 'DEEP_LINK', label: 'Deep link' },
  { type: 'LOCAL_STORAGE_SET', label: 'Store the language in the app' },
];

/** What one button sends: at once, and optionally a second action after {@link DEMO_MS}. */
export interface DebugRun {
  now: BridgeAction[];
  later?: BridgeAction;
}

/** The actions of `type`'s button for the app in `frame` (`null`: the card cannot be drawn). */
export function debugRun(type: BridgeActionType, frame: Window): DebugRun | null {
  switch (type) {
    case 'HAPTIC_FEEDBACK':
      return { now: [{ type, payload: { style: 'medium' } }] };
    case 'SHARE_IMAGE': {
      const title = 'Moat';
      const text = 'All your portfolios in one place';
      const dataUrl = renderShareCard({ title, text });
      return dataUrl ? { now: [{ type, payload: { dataUrl, fileName: 'moat-card.png', title, text } }] } : null;
    }
    case 'LOADING':
      return { now: [{ type, payload: { visible: true } }], later: { type, payload: { visible: false } } };
    case 'DIMMER_ON':
      return { now: [{ type, payload: { opacity: 0.5 } }], later: { type: 'DIMMER_OFF', payload: null } };
    case 'DIMMER_OFF':
      return { now: [{ type, payload: null }] };
    case 'NAVIGATE':
      return { now: [{ type, payload: { path: '/' } }] };
    case 'GO_BACK':
      return { now: [{ type, payload: null }] };
    case 'DEEP_LINK':
      return { now: [{ type, payload: { url: new URL('/', frame.location.origin).href } }] };
    case 'LOCAL_STORAGE_SET': {
      const lang = frame.document.documentElement.lang === 'en' ? 'en' : 'ko';
      return { now: [{ type, payload: { key: 'MOAT_LOCALE', value: lang } }] };
    }
  }
}
