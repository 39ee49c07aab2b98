/** The session's replay in an rrweb player that fits its box, with a `seek` handle for the timeline. */
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { ReplayEvent } from '../../api/types';
import { useObserveT } from '../../locales/observe/messages';
import { loadPlayer, type RrwebPlayer } from './loadPlayer';

export interface ReplayPlayerHandle {
  /** Shows the replay at `offsetMs` after its first event (kept until the player is ready). */
  seek(offsetMs: number): void;
}

/** rrweb's meta event: the recorded viewport. */
const META_EVENT = 4;
/** rrweb-player's controller bar under the frame. */
const CONTROLLER_PX = 80;
const FALLBACK_VIEWPORT = { width: 1280, height: 720 };
/** Below this width the controller has room for three speeds only. */
const NARROW_PX = 400;

/** The first recorded viewport (a meta event's `width` × `height`). */
export function recordedViewport(events: readonly ReplayEvent[]): { width: number; height: number } {
  for (const e of events) {
    if (e.type !== META_EVENT || typeof e.data !== 'object' || e.data === null) continue;
    const { width, height } = e.data as { width?: unknown; height?: unknown };
    if (typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0) return { width, height };
  }
  return FALLBACK_VIEWPORT;
}

/**
 * The frame for a box `boxWidth` wide: as wide as the box, as tall as the recorded
 * viewport's proportions ask, but never taller than `maxHeight` (a phone recording on a
 * desktop, or any recording on a phone, then shows narrower, centred).
 */
export function frameSize(boxWidth: number, viewport: { width: number; height: number }, maxHeight: number) {
  const width = Math.max(200, Math.floor(boxWidth));
  const height = Math.max(160, Math.min(Math.floor((width * viewport.height) / viewport.width), Math.floor(maxHeight)));
  return { width, height };
}

const maxFrameHeight = () => Math.max(240, (typeof window === 'undefined' ? 800 : window.innerHeight) * 0.62 - CONTROLLER_PX);

/** The replay's time origin: its earliest event (the player counts offsets from it). */
export function firstEventTime(events: readonly ReplayEvent[]): number | undefined {
  let first: number | undefined;
  for (const e of events) if (typeof e.timestamp === 'number' && (first === undefined || e.timestamp < first)) first = e.timestamp;
  return first;
}

/** Where an offset lies in a replay still loading: reachable now, or only once more pages arrived. */
export function offsetLoaded(offsetMs: number, origin: number, loadedUntil: number): boolean {
  return origin + offsetMs <= loadedUntil;
}

/** The latest timestamp among `events` (they are sorted within a page, not across). */
function lastTime(events: readonly ReplayEvent[], after: number): number {
  let last = after;
  for (const e of events) if (e.timestamp > last) last = e.timestamp;
  return last;
}

/**
 * Adds a later page to a running player: every event but the last through the replayer
 * (no controller update each), the last through the player (one update of its length).
 */
function addPage(player: RrwebPlayer, events: readonly ReplayEvent[]): void {
  if (events.length === 0) return;
  const replayer = player.getReplayer();
  for (let i = 0; i < events.length - 1; i++) replayer.addEvent(events[i]!);
  player.addEvent(events[events.length - 1]!);
}

/** rrweb-player's one English word in its controller: the "skip inactive" switch. */
function localiseController(host: HTMLElement, skipInactive: string): void {
  const label = host.querySelector('.rr-controller .switch .label');
  if (label) label.textContent = skipInactive;
  host.querySelector('.rr-controller .switch input')?.setAttribute('aria-label', skipInactive);
}

export interface ReplayPlayerProps {
  /**
   * The replay's pages as they arrive: the player starts on the first and takes each
   * later one as it comes, without starting over.
   */
  pages: readonly (readonly ReplayEvent[])[];
  /** Every page has arrived. */
  complete: boolean;
  /** Where to show the replay first (`?t=`), in ms after its first event. */
  initialOffset?: number | undefined;
  ref?: Ref<ReplayPlayerHandle>;
}

export function ReplayPlayer({ pages, complete, initialOffset, ref }: ReplayPlayerProps) {
  const t = useObserveT();
  const boxRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const playerRef = useRef<RrwebPlayer | null>(null);
  const pending = useRef<number | undefined>(initialOffset);
  /** Pages given to the player, its first event's time and the latest event's time so far. */
  const fed = useRef({ pages: 0, origin: 0, until: 0 });
  const completeRef = useRef(complete);
  completeRef.current = complete;
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const first = pages[0];

  /** Shows a pending offset once the pages holding it are there (all of them, at the latest). */
  const showPending = useCallback(() => {
    const player = playerRef.current;
    const offset = pending.current;
    if (!player || offset === undefined) return;
    if (!completeRef.current && !offsetLoaded(offset, fed.current.origin, fed.current.until)) return;
    pending.current = undefined;
    player.goto(offset, false);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      seek(offsetMs: number) {
        const player = playerRef.current;
        if (player && (completeRef.current || offsetLoaded(offsetMs, fed.current.origin, fed.current.until))) {
          pending.current = undefined;
          player.goto(offsetMs);
        } else pending.current = offsetMs;
      },
    }),
    [],
  );

  useEffect(() => {
    const box = boxRef.current;
    const host = hostRef.current;
    if (!box || !host || !first) return;
    let cancelled = false;
    let player: RrwebPlayer | null = null;
    const viewport = recordedViewport(first);
    setStatus('loading');
    loadPlayer().then(
      (Player) => {
        if (cancelled) return;
        const boxWidth = box.clientWidth || 640;
        try {
          player = new Player({
            target: host,
            props: {
              events: [...first],
              ...frameSize(boxWidth, viewport, maxFrameHeight()),
              autoPlay: false,
              skipInactive: true,
              speedOption: boxWidth < NARROW_PX ? [1, 2, 4] : [1, 2, 4, 8],
              showController: true,
              maxScale: 1,
            },
          });
        } catch {
          setStatus('failed');
          return;
        }
        localiseController(host, t('session.replay.skipInactive'));
        playerRef.current = player;
        const origin = firstEventTime(first) ?? 0;
        fed.current = { pages: 1, origin, until: lastTime(first, origin) };
        showPending();
        setStatus('ready');
      },
      () => {
        if (!cancelled) setStatus('failed');
      },
    );

    // Keep the frame as wide as its box (phones turning, the side bar appearing).
    let lastWidth = box.clientWidth;
    const observer =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver(() => {
            const width = box.clientWidth;
            if (!player || width === lastWidth) return;
            lastWidth = width;
            player.$set(frameSize(width, viewport, maxFrameHeight()));
            player.triggerResize();
          });
    observer?.observe(box);

    return () => {
      cancelled = true;
      observer?.disconnect();
      playerRef.current = null;
      player?.$destroy();
      host.replaceChildren();
    };
    // The player is made once per first page; `t` only names the switch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first]);

  // Later pages, as they arrive (and those that came while the player was loading).
  useEffect(() => {
    const player = playerRef.current;
    if (status !== 'ready' || !player) return;
    for (let i = fed.current.pages; i < pages.length; i++) {
      const events = pages[i]!;
      addPage(player, events);
      fed.current = { ...fed.current, pages: i + 1, until: lastTime(events, fed.current.until) };
    }
    showPending();
  }, [pages, complete, status, showPending]);

  return (
    <div ref={boxRef} className="observe-replay" data-testid="replay-player" data-status={status} data-complete={complete}>
      {/* The player's own DOM (Svelte) lives in this element; React renders nothing inside it. */}
      <div ref={hostRef} className="observe-replay__host" aria-label={t('session.replay.label')} role="region" />
      {status === 'loading' && (
        <p className="observe-replay__status" aria-busy="true">
          {t('session.replay.loading')}
        </p>
      )}
      {status === 'failed' && (
        <p className="observe-replay__status" role="alert" data-testid="replay-failed">
          {t('session.replay.failed')}
        </p>
      )}
    </div>
  );
}
