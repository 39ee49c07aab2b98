/**
 * The replay player: rrweb-player 2.0.0-alpha.20, the rrweb release closest to the
 * recorder that highlight.run 9.20.0 embeds (its fork of rrweb master between
 * 2.0.0-alpha.18 and alpha.20: same event and snapshot format). Loaded only by the
 * session page (`loadPlayer`), so it and its CSS are a chunk of their own.
 */
import Player from 'rrweb-player';
import 'rrweb-player/dist/style.css';
import type { ReplayEvent } from '../../api/types';

/** What the console uses of rrweb-player's Svelte component. */
export interface RrwebPlayer {
  /** Jumps to `timeOffset` ms after the first event; plays on if `play` (default: as before). */
  goto(timeOffset: number, play?: boolean): void;
  /** Adds a later event and updates the controller's length (one update per call). */
  addEvent(event: ReplayEvent): void;
  /** The replayer underneath: its `addEvent` adds without updating the controller. */
  getReplayer(): { addEvent(event: ReplayEvent): void };
  pause(): void;
  /** Re-fits the recorded page into the frame after a size change. */
  triggerResize(): void;
  $set(props: { width?: number; height?: number }): void;
  $destroy(): void;
}

export interface RrwebPlayerOptions {
  target: HTMLElement;
  props: {
    events: ReplayEvent[];
    width: number;
    height: number;
    autoPlay: boolean;
    skipInactive?: boolean;
    /** Playback speeds offered (must include 1). */
    speedOption?: number[];
    showController?: boolean;
    /** Never enlarge a small recording past its size. */
    maxScale?: number;
    mouseTail?: boolean;
  };
}

export type RrwebPlayerConstructor = new (options: RrwebPlayerOptions) => RrwebPlayer;

// The package's own typings reach into Svelte (not a dependency here); this is the part used.
export const RrwebPlayerClass = Player as unknown as RrwebPlayerConstructor;
