/** `/operator/traces[/:traceId]`: a trace's waterfall, opened from a network item or by its id. */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { normaliseTraceId, traceQueryOptions } from '../api/traces';
import { Loading, PageHeader, QueryProblem } from '../components/ui';
import { Waterfall, traceLength } from '../components/Waterfall';
import { formatMillis } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { tracePath } from '../lib/paths';

function TraceSearch({ current }: { current: string }) {
  const t = useObserveT();
  const navigate = useNavigate();
  const [value, setValue] = useState(current);
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = normaliseTraceId(value);
    setInvalid(!id);
    if (id) void navigate(tracePath(id));
  };
  return (
    <form className="card observe-search" role="search" onSubmit={submit} noValidate>
      <label className="observe-field observe-search__field">
        <span className="observe-field__label">{t('traces.search')}</span>
        <input
          className="observe-input observe-input--mono"
          type="search"
          name="trace"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('traces.searchHint')}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? 'observe-trace-invalid' : undefined}
          onChange={(e) => setValue(e.target.value)}
          data-testid="trace-search"
        />
      </label>
      <button type="submit" className="button button--primary" data-testid="trace-submit">
        {t('traces.submit')}
      </button>
      {invalid && (
        <p id="observe-trace-invalid" className="observe-search__error" role="alert">
          {t('traces.invalid')}
        </p>
      )}
    </form>
  );
}

function TraceView({ traceId }: { traceId: string }) {
  const t = useObserveT();
  const locale = useLocale();
  const trace = useQuery(traceQueryOptions(traceId));
  if (trace.isPending) return <Loading />;
  if (trace.isError) {
    return <QueryProblem error={trace.error} onRetry={() => void trace.refetch()} notFound={t('traces.notFound')} />;
  }
  const { spans } = trace.data;
  return (
    <section className="card observe-panel" aria-labelledby="observe-trace-title">
      <h2 id="observe-trace-title" className="observe__subtitle observe-trace__id">
        <code>{trace.data.trace_id}</code>
      </h2>
      <p className="observe__muted">
        {t('traces.spans', { n: formatNumber(spans.length, locale), duration: formatMillis(traceLength(spans), locale) })}
      </p>
      <Waterfall key={trace.data.trace_id} spans={spans} />
    </section>
  );
}

export function TracesPage({ traceId: raw }: { traceId?: string | undefined }) {
  const t = useObserveT();
  usePageMeta({ title: t('meta.traces'), description: t('meta.description') });
  const traceId = raw ? normaliseTraceId(raw) : undefined;
  return (
    <section className="observe-page">
      <PageHeader title={t('traces.title')} lead={t('traces.lead')} />
      <TraceSearch key={raw ?? ''} current={raw ?? ''} />
      {raw === undefined ? (
        <p className="card observe__note">{t('traces.prompt')}</p>
      ) : traceId === undefined ? (
        <p className="card observe__note" role="alert" data-testid="observe-not-found">
          {t('traces.invalid')}
        </p>
      ) : (
        <TraceView traceId={traceId} />
      )}
    </section>
  );
}
