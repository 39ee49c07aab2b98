/** The session's replay in an rrweb player that fits its box, with a `seek` handle for the timeline. */
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { ReplayEvent } from '../api/types';
import { useObserveT } from '../messages';
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

export interface ReplayPlayerProps {
  events: ReplayEvent[];
  /** Where to show the replay first (`?t=`), in ms after its first event. */
  initialOffset?: number | undefined;
  ref?: Ref<ReplayPlayerHandle>;
}

export function ReplayPlayer({ events, initialOffset, ref }: ReplayPlayerProps) {
  const t = useObserveT();
  const boxRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const playerRef = useRef<RrwebPlayer | null>(null);
  const pending = useRef<number | undefined>(initialOffset);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');

  useImperativeHandle(
    ref,
    () => ({
      seek(offsetMs: number) {
        const player = playerRef.current;
        if (player) player.goto(offsetMs);
        else pending.current = offsetMs;
      },
    }),
    [],
  );

  useEffect(() => {
    const box = boxRef.current;
    const host = hostRef.current;
    if (!box || !host) return;
    let cancelled = false;
    let player: RrwebPlayer | null = null;
    const viewport = recordedViewport(events);
    setStatus('loading');
    loadPlayer().then(
      (Player) => {
        if (cancelled) return;
        const boxWidth = box.clientWidth || 640;
        try {
          player = new Player({
            target: host,
            props: {
              events,
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
        playerRef.current = player;
        if (pending.current !== undefined) {
          player.goto(pending.current, false);
          pending.current = undefined;
        }
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
  }, [events]);

  return (
    <div ref={boxRef} className="observe-replay" data-testid="replay-player" data-status={status}>
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
