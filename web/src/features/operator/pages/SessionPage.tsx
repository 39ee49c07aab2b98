/**
 * `/operator/sessions/:secureId[?t=<ms>]`: the replay beside the session's timeline.
 * Choosing a timeline item shows the replay at that moment (item time − first replay
 * event); `?t=` opens the replay at that offset.
 */
import { useInfiniteQuery, useQuery, type InfiniteData, type UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import { formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { replayQueryOptions, sessionQueryOptions } from '../api/session';
import type { ObsReplay, ObsSession, TimelineItem } from '../api/types';
import { Timeline } from '../components/Timeline';
import { Loading, MemberLabel, PageHeader, QueryProblem } from '../components/ui';
import { formatBytes, formatClock, formatDateTime, millisBetween, nicknameOf, shortUrl } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { OBSERVE_ROOT, offsetParam } from '../lib/paths';
import { firstEventTime, ReplayPlayer, type ReplayPlayerHandle } from '../components/player/ReplayPlayer';


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

/** The replay's pages, each page's events. */
type ReplayQuery = UseInfiniteQueryResult<InfiniteData<ObsReplay>>;

/** Loads the replay's later pages one after another, once the first is there. */
function useRestOfReplay(replay: ReplayQuery): void {
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = replay;
  // The page count too: a fast page can come and go between two renders.
  const pages = replay.data?.pages.length ?? 0;
  useEffect(() => {
    if (pages > 0 && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [pages, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
}

/** The replay area: loading, empty, failed or the player (with the rest still loading). */
function Replay({
  replay,
  initialOffset,
  playerRef,
}: {
  replay: ReplayQuery;
  initialOffset: number | undefined;
  playerRef: RefObject<ReplayPlayerHandle | null>;
}) {
  const t = useObserveT();
  const locale = useLocale();
  const pages = useMemo(() => replay.data?.pages.map((p) => p.events) ?? [], [replay.data]);
  if (replay.isPending) {
    return (
      <p className="observe-replay__status observe-replay--placeholder" aria-busy="true">
        {t('session.replay.loading')}
      </p>
    );
  }
  // A later page failing keeps the pages already there (and says so below the player).
  if (!replay.data) return <QueryProblem error={replay.error} onRetry={() => void replay.refetch()} />;
  // rrweb needs a snapshot and something after it.
  if ((pages[0]?.length ?? 0) < 2) {
    return (
      <p className="observe-replay__status observe-replay--placeholder" data-testid="replay-empty">
        {t('session.replay.empty')}
      </p>
    );
  }
  const all = replay.data.pages;
  const total = all[0]!.total_chunks;
  const loaded = all.reduce((n, p) => n + p.chunks, 0);
  const complete = !replay.hasNextPage;
  return (
    <>
      <ReplayPlayer ref={playerRef} pages={pages} complete={complete} initialOffset={initialOffset} />
      {!complete && !replay.isFetchNextPageError && (
        <p className="observe-replay__more" aria-live="polite" data-testid="replay-more">
          {t('session.replay.more', { percent: formatNumber(Math.floor((100 * loaded) / Math.max(1, total)), locale) })}
        </p>
      )}
      {replay.isFetchNextPageError && (
        <p className="observe-replay__more" role="alert" data-testid="replay-more-failed">
          {t('session.replay.moreFailed')}{' '}
          <button type="button" className="button button--secondary" onClick={() => void replay.fetchNextPage()}>
            {t('common.retry')}
          </button>
        </p>
      )}
    </>
  );
}

export function SessionPage({ secureId }: { secureId: string }) {
  const t = useObserveT();
  usePageMeta({ title: t('meta.session'), description: t('meta.description') });
  const [params] = useSearchParams();
  const initialOffset = offsetParam(params.get('t'));
  const session = useQuery(sessionQueryOptions(secureId));
  const replay = useInfiniteQuery(replayQueryOptions(secureId));
  useRestOfReplay(replay);
  const player = useRef<ReplayPlayerHandle | null>(null);
  const replayArea = useRef<HTMLDivElement>(null);

  const firstPage = replay.data?.pages[0];
  const origin = useMemo(() => (firstPage ? firstEventTime(firstPage.events) : undefined), [firstPage]);
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
