/**
 * `/operator/sessions/:secureId[?t=<ms>]`: the replay beside the session's timeline.
 * Choosing a timeline item shows the replay at that moment (item time − first replay
 * event); `?t=` opens the replay at that offset.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import { formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { replayQueryOptions, sessionQueryOptions } from '../api/session';
import type { ObsReplay, ObsSession, ReplayEvent, TimelineItem } from '../api/types';
import { Timeline } from '../components/Timeline';
import { Loading, MemberLabel, PageHeader, QueryProblem } from '../components/ui';
import { formatBytes, formatClock, formatDateTime, millisBetween, nicknameOf, shortUrl } from '../format';
import { useObserveT } from '../messages';
import { OBSERVE_ROOT, offsetParam } from '../paths';
import { ReplayPlayer, type ReplayPlayerHandle } from '../player/ReplayPlayer';

/** The replay's time origin: its earliest event (the player counts offsets from it). */
export function firstEventTime(events: readonly ReplayEvent[]): number | undefined {
  let first: number | undefined;
  for (const e of events) if (typeof e.timestamp === 'number' && (first === undefined || e.timestamp < first)) first = e.timestamp;
  return first;
}

function SessionMeta({ session }: { session: ObsSession }) {
  const t = useObserveT();
  const locale = useLocale();
  const none = t('common.none');
  const rows: [string, string][] = [
    [t('session.meta.environment'), session.environment || none],
    [t('session.meta.started'), formatDateTime(session.started_at, locale)],
    [t('session.meta.duration'), formatClock(millisBetween(session.started_at, session.last_push_at))],
    [t('session.meta.lastPush'), formatDateTime(session.last_push_at, locale)],
    [t('session.meta.appVersion'), session.app_version || none],
    [t('session.meta.clientVersion'), session.client_version || none],
    [t('session.meta.firstUrl'), session.first_url ? shortUrl(session.first_url) : none],
    [t('session.meta.events'), formatNumber(session.event_count, locale)],
    [t('session.meta.bytes'), formatBytes(session.bytes_received, locale)],
    [t('session.meta.userAgent'), session.user_agent || none],
    [t('session.meta.secureId'), session.secure_id],
  ];
  return (
    <dl className="card observe-meta" data-testid="observe-session-meta">
      {rows.map(([label, value]) => (
        <div key={label} className="observe-meta__row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The replay area: loading, empty, failed or the player. */
function Replay({
  replay,
  initialOffset,
  playerRef,
}: {
  replay: UseQueryResult<ObsReplay>;
  initialOffset: number | undefined;
  playerRef: RefObject<ReplayPlayerHandle | null>;
}) {
  const t = useObserveT();
  if (replay.isPending) {
    return (
      <p className="observe-replay__status observe-replay--placeholder" aria-busy="true">
        {t('session.replay.loading')}
      </p>
    );
  }
  if (replay.isError) return <QueryProblem error={replay.error} onRetry={() => void replay.refetch()} />;
  // rrweb needs a snapshot and something after it.
  if (replay.data.events.length < 2) {
    return (
      <p className="observe-replay__status observe-replay--placeholder" data-testid="replay-empty">
        {t('session.replay.empty')}
      </p>
    );
  }
  return <ReplayPlayer ref={playerRef} events={replay.data.events} initialOffset={initialOffset} />;
}

export function SessionPage({ secureId }: { secureId: string }) {
  const t = useObserveT();
  usePageMeta({ title: t('meta.session'), description: t('meta.description') });
  const [params] = useSearchParams();
  const initialOffset = offsetParam(params.get('t'));
  const session = useQuery(sessionQueryOptions(secureId));
  const replay = useQuery(replayQueryOptions(secureId));
  const player = useRef<ReplayPlayerHandle | null>(null);
  const replayArea = useRef<HTMLDivElement>(null);

  const origin = useMemo(() => (replay.data ? firstEventTime(replay.data.events) : undefined), [replay.data]);
  const offsetOf = useCallback(
    (item: TimelineItem) => (origin !== undefined ? Math.max(0, item.ts - origin) : (item.offset_ms ?? null)),
    [origin],
  );
  const seek = useCallback((_item: TimelineItem, offset: number) => {
    player.current?.seek(offset);
    // On narrow screens the player is above the timeline: bring it into view.
    const area = replayArea.current;
    if (area && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 1023px)').matches) {
      area.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    }
  }, []);

  const back = { to: `${OBSERVE_ROOT}/sessions`, label: t('session.back') };
  if (session.isError) {
    return (
      <section className="observe-page">
        <PageHeader title={t('session.title')} back={back} />
        <QueryProblem error={session.error} onRetry={() => void session.refetch()} notFound={t('session.notFound')} />
      </section>
    );
  }
  const data = session.data;
  return (
    <section className="observe-page observe-session" aria-busy={session.isPending}>
      <PageHeader
        title={
          data ? <MemberLabel member={data.session.member} nickname={nicknameOf(data.session.user_object)} /> : t('session.title')
        }
        back={back}
      />
      <div className="observe-session__layout">
        <div className="observe-session__main">
          <div ref={replayArea} className="card observe-session__replay">
            <Replay replay={replay} initialOffset={initialOffset} playerRef={player} />
          </div>
          {data ? <SessionMeta session={data.session} /> : <Loading />}
        </div>
        <aside className="card observe-session__timeline" data-testid="observe-timeline">
          {data ? <Timeline items={data.timeline} offsetOf={offsetOf} onSeek={seek} /> : <Loading />}
        </aside>
      </div>
    </section>
  );
}
