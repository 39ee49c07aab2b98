/**
 * A trace as a waterfall: one row per span in tree order (children under their parent,
 * by start), each bar placed by its start and length on the trace's time scale.
 * Choosing a span shows its attributes.
 */
import { useState } from 'react';
import { useLocale } from '@/shared/i18n/useLocale';
import { AppLink } from '@/shared/ui/AppLink';
import type { Span } from '../api/types';
import { formatMillis } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { sessionPath } from '../lib/paths';

export interface WaterfallRow {
  span: Span;
  depth: number;
}

/** Most nesting shown as indentation (deeper spans line up with it). */
const MAX_DEPTH = 8;

/** Spans in tree order with their depth; spans whose parent is not in the trace are roots. */
export function waterfallRows(spans: readonly Span[]): WaterfallRow[] {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map<string, Span[]>();
  const roots: Span[] = [];
  for (const span of spans) {
    const parent = span.parent_span_id;
    if (parent && parent !== span.span_id && ids.has(parent)) {
      children.set(parent, [...(children.get(parent) ?? []), span]);
    } else {
      roots.push(span);
    }
  }
  const byStart = (a: Span, b: Span) => a.start_offset_ms - b.start_offset_ms;
  const rows: WaterfallRow[] = [];
  const seen = new Set<string>();
  const visit = (span: Span, depth: number) => {
    if (seen.has(span.span_id)) return;
    seen.add(span.span_id);
    rows.push({ span, depth });
    for (const child of (children.get(span.span_id) ?? []).sort(byStart)) visit(child, depth + 1);
  };
  for (const root of roots.sort(byStart)) visit(root, 0);
  // Spans caught in a parent cycle are never reached from a root: list them flat at the end.
  for (const span of spans) if (!seen.has(span.span_id)) visit(span, 0);
  return rows;
}

/** The trace's length: the latest span end (at least 1 ms, so bars have a scale). */
export function traceLength(spans: readonly Span[]): number {
  return Math.max(1, ...spans.map((s) => s.start_offset_ms + Math.max(0, s.duration_ms)));
}

const KIND_KEYS = { 1: 'internal', 2: 'server', 3: 'client', 4: 'producer', 5: 'consumer' } as const;

function SpanDetails({ span }: { span: Span }) {
  const t = useObserveT();
  const locale = useLocale();
  const kind = KIND_KEYS[span.kind as keyof typeof KIND_KEYS];
  const attributes = Object.entries((span.attributes ?? {}) as Record<string, unknown>);
  return (
    <div className="observe-span-details" data-testid="trace-span-details">
      <h3 className="observe__subtitle">{span.name}</h3>
      <dl className="observe-meta">
        <div className="observe-meta__row">
          <dt>{t('traces.service')}</dt>
          <dd>
            {span.service}
            {kind && ` · ${t(`traces.kinds.${kind}`)}`}
          </dd>
        </div>
        <div className="observe-meta__row">
          <dt>{t('traces.start')}</dt>
          <dd>+{formatMillis(span.start_offset_ms, locale)}</dd>
        </div>
        <div className="observe-meta__row">
          <dt>{t('traces.duration')}</dt>
          <dd>{formatMillis(span.duration_ms, locale)}</dd>
        </div>
        {span.status_code === 2 && (
          <div className="observe-meta__row">
            <dt>{t('traces.status')}</dt>
            <dd className="observe-status--error">
              {t('traces.statusError')}
              {span.status_message ? `: ${span.status_message}` : ''}
            </dd>
          </div>
        )}
      </dl>
      {span.session_secure_id && (
        <AppLink to={sessionPath(span.session_secure_id)} className="observe-span-details__session">
          {t('common.openSession')}
        </AppLink>
      )}
      <h4 className="observe-span-details__attrs-title">{t('traces.attributes')}</h4>
      {attributes.length === 0 ? (
        <p className="observe__muted">{t('traces.noAttributes')}</p>
      ) : (
        <dl className="observe-attrs">
          {attributes.map(([key, value]) => (
            <div key={key} className="observe-attrs__row">
              <dt>
                <code>{key}</code>
              </dt>
              <dd>
                <code>{typeof value === 'string' ? value : JSON.stringify(value)}</code>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

export function Waterfall({ spans }: { spans: readonly Span[] }) {
  const locale = useLocale();
  const rows = waterfallRows(spans);
  const total = traceLength(spans);
  const [selected, setSelected] = useState<string | null>(rows[0]?.span.span_id ?? null);
  const chosen = rows.find((r) => r.span.span_id === selected)?.span;
  const pct = (ms: number) => `${Math.min(100, Math.max(0, (ms / total) * 100))}%`;
  return (
    <div className="observe-waterfall-wrap">
      <ol className="observe-waterfall" data-testid="trace-waterfall">
        {rows.map(({ span, depth }) => {
          const error = span.status_code === 2;
          return (
            <li key={span.span_id} data-testid="trace-span" data-depth={depth}>
              <button
                type="button"
                className={`observe-waterfall__row${error ? ' observe-waterfall__row--error' : ''}`}
                aria-pressed={selected === span.span_id}
                onClick={() => setSelected(span.span_id)}
              >
                <span className="observe-waterfall__label" style={{ paddingInlineStart: `${Math.min(depth, MAX_DEPTH) * 12}px` }}>
                  <span className="observe-waterfall__name">{span.name}</span>
                  <span className="observe-waterfall__service">{span.service}</span>
                </span>
                <span className="observe-waterfall__track">
                  <span
                    className={`observe-waterfall__bar observe-waterfall__bar--${span.service === 'moat-server' ? 'server' : 'browser'}`}
                    style={{ insetInlineStart: pct(span.start_offset_ms), width: pct(Math.max(span.duration_ms, 0)) }}
                  />
                </span>
                <span className="observe-waterfall__duration">{formatMillis(span.duration_ms, locale)}</span>
              </button>
            </li>
          );
        })}
      </ol>
      {chosen && <SpanDetails span={chosen} />}
    </div>
  );
}
