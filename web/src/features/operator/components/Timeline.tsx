/**
 * A session's timeline (loads, navigations, clicks, console, network, errors), filterable
 * by kind. Choosing an item shows the replay at that moment; network items link to
 * their trace when the request carried one, errors to their group.
 */
import { memo, useId, useState } from 'react';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import { traceIdOfHeaders } from '../api/traces';
import type { TimelineItem } from '../api/types';
import { formatClock, formatMillis, shortUrl } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { errorGroupPath, tracePath } from '../lib/paths';
import { StackTrace } from './StackTrace';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';

export const TIMELINE_GROUPS = {
  pages: ['load', 'navigate', 'reload'],
  clicks: ['click'],
  console: ['console'],
  network: ['network'],
  errors: ['error'],
} as const;
type Group = keyof typeof TIMELINE_GROUPS;
const KINDS = ['load', 'navigate', 'reload', 'click', 'console', 'network', 'error'] as const;
type Kind = (typeof KINDS)[number];

const isKind = (kind: string): kind is Kind => (KINDS as readonly string[]).includes(kind);

type Detail = Record<string, unknown>;
const str = (d: Detail, key: string) => {
  const v = d[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};

/** Longer console messages get their full text under "details". */
const LONG_MESSAGE = 160;

function json(value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

/** One line saying what happened. */
function Summary({ kind, detail }: { kind: Kind; detail: Detail }) {
  const locale = useLocale();
  switch (kind) {
    case 'load':
    case 'navigate':
      return <>{shortUrl(str(detail, 'url') ?? '')}</>;
    case 'reload':
      return null;
    case 'click':
      return <>{str(detail, 'text') || str(detail, 'target') || str(detail, 'selector')}</>;
    case 'console':
      return (
        <>
          <span className={`observe-level observe-level--${str(detail, 'level') ?? 'log'}`}>{str(detail, 'level') ?? 'log'}</span>{' '}
          {str(detail, 'message')}
        </>
      );
    case 'network': {
      const status = str(detail, 'status');
      const duration = typeof detail.duration_ms === 'number' ? formatMillis(detail.duration_ms, locale) : undefined;
      const failed = status !== undefined && (Number(status) >= 400 || Number(status) === 0);
      return (
        <>
          <span className="observe-timeline__method">{str(detail, 'method') ?? 'GET'}</span>{' '}
          {status && <span className={failed ? 'observe-status observe-status--error' : 'observe-status'}>{status}</span>}{' '}
          {shortUrl(str(detail, 'url') ?? '')}
          {duration && <span className="observe__muted"> · {duration}</span>}
        </>
      );
    }
    case 'error':
      return <>{str(detail, 'message')}</>;
  }
}

function Details({ kind, detail }: { kind: Kind; detail: Detail }) {
  const t = useObserveT();
  const sections: [string, string | undefined][] =
    kind === 'network'
      ? [
          [t('session.timeline.requestHeaders'), json(detail.request_headers)],
          [t('session.timeline.requestBody'), json(detail.request_body)],
          [t('session.timeline.responseHeaders'), json(detail.response_headers)],
          [t('session.timeline.responseBody'), json(detail.response_body)],
        ]
      : kind === 'console' && (str(detail, 'message')?.length ?? 0) > LONG_MESSAGE
        ? [[t('session.timeline.kinds.console'), str(detail, 'message')]]
        : [];
  const present = sections.filter(([, body]) => body);
  const hasStack = kind === 'error' && Array.isArray(detail.stack) && detail.stack.length > 0;
  if (present.length === 0 && !hasStack) return null;
  return (
    <details className="observe-timeline__details">
      <summary>{t('session.timeline.details')}</summary>
      {present.map(([title, body]) => (
        <div key={title} className="observe-timeline__section">
          <h4>{title}</h4>
          <pre>{body}</pre>
        </div>
      ))}
      {hasStack && (
        <div className="observe-timeline__section">
          <h4>{t('session.timeline.stack')}</h4>
          <StackTrace frames={detail.stack} />
        </div>
      )}
    </details>
  );
}

export interface TimelineProps {
  items: readonly TimelineItem[];
  /** Where the replay shows an item (ms after its first event), `null` if outside it. */
  offsetOf: (item: TimelineItem) => number | null;
  onSeek: (item: TimelineItem, offsetMs: number) => void;
}

/**
 * The session's timeline: up to thousands of items, so it renders again only when its
 * own props change (not at each page of the replay arriving beside it).
 */
export const Timeline = memo(function Timeline({ items, offsetOf, onSeek }: TimelineProps) {
  const t = useObserveT();
  const [group, setGroup] = useState<Group | 'all'>('all');
  const [active, setActive] = useState<number | null>(null);
  const labelId = useId();
  const kinds: readonly string[] | undefined = group === 'all' ? undefined : TIMELINE_GROUPS[group];
  const shown = items.map((item, index) => ({ item, index })).filter(({ item }) => !kinds || kinds.includes(item.kind));
  return (
    <div className="observe-timeline">
      <div className="observe-timeline__head">
        <h2 className="observe__subtitle" id={`${labelId}-title`}>
          {t('session.timeline.title')}
        </h2>
        <SegmentedControl
          overflow="wrap"
          label={t('session.timeline.filter')}
          testId="timeline-filter"
          segments={(['all', ...Object.keys(TIMELINE_GROUPS)] as (Group | 'all')[]).map((g) => ({
            value: g,
            label: g === 'all' ? t('session.timeline.all') : t(`session.timeline.groups.${g}`),
            testId: `timeline-filter-${g}`,
          }))}
          value={group}
          onChange={setGroup}
        />
      </div>
      {shown.length === 0 ? (
        <p className="observe__muted observe-timeline__empty">{t('session.timeline.empty')}</p>
      ) : (
        <ol className="observe-timeline__list" aria-labelledby={`${labelId}-title`}>
          {shown.map(({ item, index }) => {
            const kind = isKind(item.kind) ? item.kind : undefined;
            if (!kind) return null;
            const detail = (item.detail ?? {}) as Detail;
            const offset = offsetOf(item);
            const traceId = kind === 'network' ? traceIdOfHeaders(detail.request_headers) : undefined;
            const groupId = kind === 'error' && typeof detail.group_id === 'number' ? detail.group_id : undefined;
            const time = offset !== null ? formatClock(offset) : t('session.timeline.noOffset');
            return (
              <li
                key={index}
                className={`observe-timeline__item observe-timeline__item--${kind}`}
                data-testid="timeline-item"
                data-kind={kind}
                aria-current={active === index ? 'true' : undefined}
              >
                <button
                  type="button"
                  className="observe-timeline__seek"
                  disabled={offset === null}
                  onClick={() => {
                    if (offset === null) return;
                    setActive(index);
                    onSeek(item, offset);
                  }}
                  title={offset !== null ? t('session.timeline.seek', { time }) : undefined}
                >
                  <span className="observe-timeline__time">{time}</span>
                  <span className="observe-timeline__kind">{t(`session.timeline.kinds.${kind}`)}</span>
                  <span className="observe-timeline__summary">
                    <Summary kind={kind} detail={detail} />
                  </span>
                </button>
                {(traceId || groupId !== undefined) && (
                  <div className="observe-timeline__links">
                    {traceId && (
                      <AppLink to={tracePath(traceId)} data-testid="timeline-trace-link">
                        {t('session.timeline.trace')}
                      </AppLink>
                    )}
                    {groupId !== undefined && (
                      <AppLink to={errorGroupPath(groupId)} data-testid="timeline-error-link">
                        {t('session.timeline.errorGroup')}
                      </AppLink>
                    )}
                  </div>
                )}
                <Details kind={kind} detail={detail} />
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
});
