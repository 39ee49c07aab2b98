/**
 * `/operator/news`: the operator's news feeds (operators only): each feed's outlet, URL,
 * country, language, status and schedule, switched on and off, edited, deleted, fetched
 * now; a form to add one (the API's refusals shown at their fields); and, while some
 * default feeds are not added, the one-click "기본 피드 사용하기".
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { meQueryOptions } from '@/entities/member/api/me';
import { useAuth } from '@/entities/member/model/auth-context';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { ApiError } from '@/shared/api/client';
import { codeText, errorText } from '@/shared/api/error-text';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { formatDate, formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { SectionError } from '@/shared/ui/card/SectionError';
import { InputField, SelectField, focusFirstInvalid } from '@/shared/ui/form/Field';
import { serverFieldErrors } from '@/shared/ui/form/server-errors';
import {
  useAddDefaultFeeds,
  useCreateFeed,
  useDeleteFeed,
  useFeeds,
  useFetchFeedNow,
  useUpdateFeed,
} from '../api/feeds';
import type { Feed, FeedInput, NewsCountry } from '../api/types';
import { NewsSkeleton } from '../components/PagedArticles';
import '../components/news.css';

export { messagesReady } from '../locales/messages';

const COUNTRIES: readonly NewsCountry[] = ['KR', 'US'];
const LANGUAGES = ['ko', 'en'] as const;

/** Refusals that concern the URL when the server names no field. */
const URL_CODES = new Set(['invalid_feed_url', 'news_feed_exists']);

const EMPTY_INPUT: FeedInput = { url: '', source_name: '', country: 'KR', language: 'ko', enabled: true };

/** The operators-only gate: visitors were sent to log in by `RequireAuth`; members see a notice. */
function OperatorOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('news');
  const { userId } = useAuth();
  const me = useQuery(meQueryOptions(userId));
  if (me.isPending) return <NewsSkeleton rows={2} />;
  if (me.isError) return <SectionError message={t('feeds.loadFailed')} retryLabel={t('feeds.retry')} onRetry={() => void me.refetch()} />;
  if (me.data.role !== 'operator') {
    return (
      <p className="card news-note" role="alert">
        {t('feeds.forbidden')}
      </p>
    );
  }
  return children;
}

/** The form's field errors from a refused save. */
function fieldErrorsOf(error: unknown): Record<string, string> {
  const fields = serverFieldErrors(error);
  if (error instanceof ApiError && Object.keys(fields).length === 0 && URL_CODES.has(error.code)) {
    fields.url = errorText(error);
  }
  return fields;
}

interface FeedFormProps {
  title: string;
  initial: FeedInput;
  pending: boolean;
  error: unknown;
  onSubmit: (input: FeedInput) => void;
  onCancel: () => void;
}

function FeedForm({ title, initial, pending, error, onSubmit, onCancel }: FeedFormProps) {
  const { t } = useTranslation('news');
  const titleId = useId();
  const [input, setInput] = useState(initial);
  const [missing, setMissing] = useState<Record<string, string>>({});
  const server = fieldErrorsOf(error);
  const errors = { ...server, ...missing };
  const general = error && Object.keys(server).length === 0 ? errorText(error) : null;
  const set = <K extends keyof FeedInput>(key: K, value: FeedInput[K]) => setInput((v) => ({ ...v, [key]: value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const blank: Record<string, string> = {};
    if (!input.url.trim()) blank.url = codeText('required');
    if (!input.source_name.trim()) blank.source_name = codeText('required');
    setMissing(blank);
    if (Object.keys(blank).length > 0) {
      requestAnimationFrame(() => focusFirstInvalid(form));
      return;
    }
    onSubmit({ ...input, url: input.url.trim(), source_name: input.source_name.trim() });
  };

  return (
    <form className="card news-feed-form" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h2 id={titleId} className="news-feed__name">
        {title}
      </h2>
      <InputField
        label={t('feeds.fields.url')}
        type="url"
        inputMode="url"
        autoComplete="off"
        value={input.url}
        onChange={(e) => set('url', e.target.value)}
        error={errors.url}
        hint={t('feeds.urlHint')}
      />
      <InputField
        label={t('feeds.fields.sourceName')}
        value={input.source_name}
        onChange={(e) => set('source_name', e.target.value)}
        error={errors.source_name}
      />
      <div className="news-feed-form__row">
        <SelectField
          label={t('feeds.fields.country')}
          value={input.country}
          onChange={(e) => set('country', e.target.value === 'US' ? 'US' : 'KR')}
          options={COUNTRIES.map((c) => ({ value: c, label: t(`feeds.countries.${c}`) }))}
          error={errors.country}
        />
        <SelectField
          label={t('feeds.fields.language')}
          value={input.language}
          onChange={(e) => set('language', e.target.value)}
          options={LANGUAGES.map((l) => ({ value: l, label: t(`feeds.languages.${l}`) }))}
          error={errors.language}
        />
      </div>
      <label className="news-check">
        <input type="checkbox" checked={input.enabled} onChange={(e) => set('enabled', e.target.checked)} />
        {t('feeds.fields.enabled')}
      </label>
      {general && (
        <p className="news-feed__error" role="alert">
          {general}
        </p>
      )}
      <div className="news-feed__actions">
        <button type="submit" className="button button--primary" disabled={pending} aria-busy={pending}>
          {pending ? t('feeds.saving') : t('feeds.save')}
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {t('feeds.cancel')}
        </button>
      </div>
    </form>
  );
}

function AddFeed({ onDone }: { onDone: (message: string) => void }) {
  const { t } = useTranslation('news');
  const [open, setOpen] = useState(false);
  const create = useCreateFeed();
  if (!open) {
    return (
      <button type="button" className="button button--primary news-feeds__add" onClick={() => setOpen(true)}>
        {t('feeds.add')}
      </button>
    );
  }
  return (
    <FeedForm
      title={t('feeds.addTitle')}
      initial={EMPTY_INPUT}
      pending={create.isPending}
      error={create.error}
      onSubmit={(input) =>
        create.mutate(input, {
          onSuccess: () => {
            setOpen(false);
            create.reset();
            onDone(t('feeds.saved'));
          },
        })
      }
      onCancel={() => {
        setOpen(false);
        create.reset();
      }}
    />
  );
}

function DefaultsCard({ count, onDone }: { count: number; onDone: (message: string) => void }) {
  const { t } = useTranslation('news');
  const add = useAddDefaultFeeds();
  return (
    <section className="card news-defaults" aria-labelledby="news-defaults-title">
      <h2 id="news-defaults-title" className="news-feed__name">
        {t('feeds.defaults.title')}
      </h2>
      <p className="news-muted">{t('feeds.defaults.note')}</p>
      <button
        type="button"
        className="button button--primary news-feeds__add"
        disabled={add.isPending}
        aria-busy={add.isPending}
        onClick={() => add.mutate(undefined, { onSuccess: (r) => onDone(t('feeds.defaults.added', { count: r.added })) })}
      >
        {t('feeds.defaults.use', { count })}
      </button>
      {add.isError && (
        <p className="news-feed__error" role="alert">
          {errorText(add.error)}
        </p>
      )}
    </section>
  );
}

function Detail({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'news-feed__detail news-feed__detail--wide' : 'news-feed__detail'}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function FeedItem({ feed, onDone }: { feed: Feed; onDone: (message: string) => void }) {
  const { t } = useTranslation('news');
  const locale = useLocale();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateFeed();
  const remove = useDeleteFeed();
  const fetchNow = useFetchFeedNow();
  const name = feed.source_name;
  const time = (iso: string | null | undefined) => (iso ? formatDate(iso, locale, { dateStyle: 'medium', timeStyle: 'short' }) : t('feeds.never'));
  const failure = [update, remove, fetchNow].find((m) => m.isError)?.error;

  if (editing) {
    return (
      <li>
        <FeedForm
          title={t('feeds.editTitle', { name })}
          initial={{ url: feed.url, source_name: feed.source_name, country: feed.country, language: feed.language, enabled: feed.enabled }}
          pending={update.isPending}
          error={update.error}
          onSubmit={(change) =>
            update.mutate(
              { id: feed.id, change },
              {
                onSuccess: () => {
                  setEditing(false);
                  update.reset();
                  onDone(t('feeds.saved'));
                },
              },
            )
          }
          onCancel={() => {
            setEditing(false);
            update.reset();
          }}
        />
      </li>
    );
  }

  return (
    <li className="card news-feed" aria-labelledby={`news-feed-${feed.id}`}>
      <div className="news-feed__head">
        <h2 id={`news-feed-${feed.id}`} className="news-feed__name">
          {name}
        </h2>
        {feed.is_default && <span className="news-badge">{t('feeds.defaultBadge')}</span>}
        <span className={`news-badge news-badge--${feed.status}`}>{t(`feeds.status.${feed.status}`)}</span>
      </div>
      <p className="news-feed__url">{feed.url}</p>
      <dl className="news-feed__details">
        <Detail label={t('feeds.fields.country')}>{t(`feeds.countries.${feed.country}`)}</Detail>
        <Detail label={t('feeds.fields.language')}>{feed.language === 'ko' || feed.language === 'en' ? t(`feeds.languages.${feed.language}`) : feed.language}</Detail>
        <Detail label={t('feeds.lastFetch')}>{time(feed.last_fetch_at)}</Detail>
        <Detail label={t('feeds.lastSuccess')}>{time(feed.last_success_at)}</Detail>
        <Detail label={t('feeds.errorCount')}>{formatNumber(feed.error_count, locale)}</Detail>
        <Detail label={t('feeds.items')}>
          {t('feeds.itemsValue', { total: formatNumber(feed.items_total, locale), last: formatNumber(feed.items_last_fetch, locale) })}
        </Detail>
        <Detail label={t('feeds.nextPoll')}>
          {feed.enabled ? time(feed.next_poll_at) : t('feeds.never')}
          {feed.enabled && feed.interval_secs > 0 && (
            <span className="news-muted"> ({t('feeds.interval', { minutes: formatNumber(Math.round(feed.interval_secs / 60), locale) })})</span>
          )}
        </Detail>
        {feed.last_error && (
          <Detail label={t('feeds.lastError')} wide>
            <span className="news-feed__error-text">{feed.last_error}</span>
          </Detail>
        )}
      </dl>
      <div className="news-feed__actions">
        <label className="news-check">
          <input
            type="checkbox"
            checked={feed.enabled}
            disabled={update.isPending}
            aria-label={t('feeds.enabledLabel', { name })}
            onChange={(e) => update.mutate({ id: feed.id, change: { enabled: e.target.checked } })}
          />
          <span aria-hidden="true">{t('feeds.fields.enabled')}</span>
        </label>
        <button
          type="button"
          className="button button--secondary"
          aria-label={t('feeds.fetchNowLabel', { name })}
          disabled={fetchNow.isPending}
          aria-busy={fetchNow.isPending}
          onClick={() => fetchNow.mutate(feed.id)}
        >
          {fetchNow.isPending ? t('feeds.fetching') : t('feeds.fetchNow')}
        </button>
        <button type="button" className="button button--secondary" aria-label={t('feeds.editLabel', { name })} onClick={() => setEditing(true)}>
          {t('feeds.edit')}
        </button>
        <button type="button" className="button button--secondary" aria-label={t('feeds.deleteLabel', { name })} onClick={() => setConfirming(true)}>
          {t('feeds.delete')}
        </button>
      </div>
      {fetchNow.data && !fetchNow.isPending && (
        <p className="news-feed__result" role="status">
          {t('feeds.fetched', { new: formatNumber(fetchNow.data.new_articles, locale), merged: formatNumber(fetchNow.data.merged, locale) })}
        </p>
      )}
      {confirming && (
        <div className="news-feed__confirm" role="alertdialog" aria-label={t('feeds.deleteLabel', { name })}>
          <p>{t('feeds.deleteConfirm', { name })}</p>
          <div className="news-feed__actions">
            <button
              type="button"
              className="button news-button--danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate(feed.id, { onSuccess: () => onDone(t('feeds.deleted', { name })) })}
            >
              {t('feeds.delete')}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
              {t('feeds.cancel')}
            </button>
          </div>
        </div>
      )}
      {failure != null && (
        <p className="news-feed__error" role="alert">
          {errorText(failure)}
        </p>
      )}
    </li>
  );
}

function Feeds() {
  const { t } = useTranslation('news');
  const feeds = useFeeds();
  const [message, setMessage] = useState('');
  return (
    <>
      <p className="visually-hidden" role="status">
        {message}
      </p>
      {message && <p className="news-feeds__message">{message}</p>}
      {feeds.isPending ? (
        <NewsSkeleton rows={3} />
      ) : feeds.isError ? (
        <SectionError message={t('feeds.loadFailed')} retryLabel={t('feeds.retry')} onRetry={() => void feeds.refetch()} />
      ) : (
        <>
          {feeds.data.defaults_available > 0 && <DefaultsCard count={feeds.data.defaults_available} onDone={setMessage} />}
          <AddFeed onDone={setMessage} />
          {feeds.data.feeds.length === 0 ? (
            <p className="news-muted">{t('feeds.empty')}</p>
          ) : (
            <ul className="news-feeds" aria-label={t('feeds.list')}>
              {feeds.data.feeds.map((feed) => (
                <FeedItem key={feed.id} feed={feed} onDone={setMessage} />
              ))}
            </ul>
          )}
        </>
      )}
    </>
  );
}

export function FeedsPage() {
  const { t } = useTranslation('news');
  usePageMeta({ title: t('feeds.meta.title'), description: t('feeds.meta.description') });
  return (
    <RequireAuth>
      <OperatorOnly>
        <div className="news-page news-feeds-page">
          <h1 className="news-page__title">{t('feeds.title')}</h1>
          <p className="news-muted">{t('feeds.lead')}</p>
          <Feeds />
        </div>
      </OperatorOnly>
    </RequireAuth>
  );
}
