import { useId, useMemo, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ApiError } from '@/shared/api/client';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { formatNumber, formatQuantity } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { failureMessage } from '../lib/failure';
import { formatTradeDate } from '../lib/format';
import { issueMessage } from '../lib/issues';
import { usePortfolioT, type PortfolioT } from '../locales/messages';
import { Amount } from '../components/ui';
import '../components/portfolio.css';
import type { ImportError, ImportPreview, ImportResult, UploadProgress } from '../api/import';
import { downloadExport } from '../api/export';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, previewImport, useImport } from '../api/import';
import { parsePortfolioRef } from '../api/keys';
import { usePortfolio } from '../api/portfolio';

/** `/portfolios/:id/import`, for members. */
export function ImportRoute() {
  return (
    <RequireAuth>
      <ImportPage />
    </RequireAuth>
  );
}

/**
 * Errors are listed this many at a time: a file can have thousands of bad lines, and
 * rendering them all at once would stall a phone. Every one is a tap away ("show more").
 */
export const IMPORT_ERRORS_SHOWN = 200;

/** What a refused upload says: the size and row limits in words, else the usual failures. */
function uploadFailure(t: PortfolioT, error: unknown, locale: 'ko' | 'en', fallback: string): string {
  if (error instanceof ApiError && error.code === 'too_many_rows') {
    return t('import.errors.too_many_rows', { rows: formatNumber(IMPORT_MAX_ROWS, locale) });
  }
  if (error instanceof ApiError && error.code === 'payload_too_large') return t('import.errors.payload_too_large', { size: maxSize() });
  return failureMessage(t, error, fallback);
}

/** The size limit as written in the messages (`5MB`). */
const maxSize = () => `${IMPORT_MAX_BYTES / (1024 * 1024)}MB`;

const isCsv = (file: File) => /\.csv$/i.test(file.name) || file.type === 'text/csv' || file.type === 'application/vnd.ms-excel';

/** The `errors` of a refused import (422), when the answer carries them. */
function errorsOf(error: unknown): ImportError[] | undefined {
  const details = error instanceof ApiError ? (error as ApiError & { details?: unknown }).details : undefined;
  return Array.isArray(details) ? (details as ImportError[]) : undefined;
}

type Stage =
  | { step: 'choose' }
  | { step: 'preview'; name: string; size: number; file: Blob; preview: ImportPreview }
  | { step: 'done'; result: ImportResult };

/**
 * The import wizard: choose or drop a CSV → the server's preview (duplicates marked,
 * each bad line named with its column and problem) → import, allowed only when no line
 * is bad → what was imported. Nothing is stored before the last step.
 */
export function ImportPage() {
  const t = usePortfolioT();
  usePageMeta({ title: t('meta.import.title'), description: t('meta.import.description') });
  const { id: raw } = useParams();
  const ref = parsePortfolioRef(raw);
  if (typeof ref !== 'number') {
    return (
      <div className="pf-page">
        <div className="pf-message" role="alert">
          <p>{t('notFound')}</p>
          <AppLink to="/portfolios" className="button button--secondary">
            {t('backToList')}
          </AppLink>
        </div>
      </div>
    );
  }
  return <Wizard portfolioId={ref} />;
}

function Wizard({ portfolioId }: { portfolioId: number }) {
  const t = usePortfolioT();
  const locale = useLocale();
  const toast = useToast();
  const portfolio = usePortfolio(portfolioId);
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [problem, setProblem] = useState('');
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const backTo = `/portfolios/${portfolioId}`;
  const name = portfolio.data?.name ?? '';

  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const preview = useMutation({
    mutationFn: (file: Blob) => previewImport(portfolioId, file, setProgress),
    onSettled: () => setProgress(null),
  });
  const apply = useImport(portfolioId, setProgress);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setProblem('');
    if (!isCsv(file)) return setProblem(t('import.notCsv'));
    if (file.size > IMPORT_MAX_BYTES) return setProblem(t('import.errors.payload_too_large', { size: maxSize() }));
    // The bytes as they are: the server detects UTF-8 or EUC-KR and the broker's format.
    preview.mutate(file, {
      onSuccess: (result) => setStage({ step: 'preview', name: file.name, size: file.size, file, preview: result }),
      onError: (error) => setProblem(uploadFailure(t, error, locale, t('import.previewFailed'))),
    });
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    void readFile(event.target.files?.[0]);
    event.target.value = '';
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void readFile(event.dataTransfer.files?.[0]);
  };

  const onApply = () => {
    if (stage.step !== 'preview') return;
    apply.mutate(stage.file, {
      onSuccess: (result) => {
        setProgress(null);
        setStage({ step: 'done', result });
      },
      onError: (error) => {
        const errors = errorsOf(error);
        setProgress(null);
        if (errors) setStage({ ...stage, preview: { ...stage.preview, errors } });
        toast.show(errors ? t('import.failed') : `${uploadFailure(t, error, locale, t('import.failed'))} ${t('import.nothingStored')}`, { tone: 'error' });
      },
    });
  };

  const restart = () => {
    setStage({ step: 'choose' });
    setProblem('');
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  const onExport = () => {
    downloadExport(portfolioId, `${name || 'portfolio'}.csv`).catch((error: unknown) =>
      toast.show(failureMessage(t, error, t('detail.exportFailed')), { tone: 'error' }),
    );
  };

  return (
    <div className="pf-page" data-testid="import-page">
      <nav className="pf-breadcrumb" aria-label={name || t('backToList')}>
        <AppLink to={backTo}>{name || t('backToList')}</AppLink>
      </nav>
      <h1 className="pf-title">{t('import.title')}</h1>

      {stage.step === 'choose' && (
        <section className="card pf-section">
          <p>{t('import.intro')}</p>
          <p className="field__hint">{t('import.formatHint')}</p>
          <p className="field__hint">{t('import.brokerHint')}</p>
          <div
            className={`pf-drop${dragging ? ' pf-drop--over' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="drop-zone"
            aria-busy={preview.isPending}
          >
            <span>{t('import.drop')}</span>
            <label htmlFor={inputId} className="button button--primary pf-drop__button">
              {preview.isPending ? t('import.previewing') : t('import.choose')}
            </label>
            <input
              ref={inputRef}
              id={inputId}
              className="pf-drop__input"
              type="file"
              accept=".csv,text/csv"
              onChange={onPick}
              disabled={preview.isPending}
              data-testid="file-input"
            />
          </div>
          {preview.isPending && <ImportProgress progress={progress} />}
          <p className="pf-form__message" role="alert" data-testid="import-problem">
            {problem}
          </p>
          <button type="button" className="pf-link-button" onClick={onExport} data-testid="export-link">
            {t('import.export')}
          </button>
        </section>
      )}

      {stage.step === 'preview' && apply.isPending && <ImportProgress progress={progress} />}
      {stage.step === 'preview' && (
        <PreviewStep
          stage={stage}
          applying={apply.isPending}
          onApply={onApply}
          onRestart={restart}
          locale={locale}
        />
      )}

      {stage.step === 'done' && (
        <section className="card pf-section" data-testid="import-done">
          <p role="status" className="pf-done">
            {t('import.done', { imported: stage.result.imported, skipped: stage.result.skipped_duplicates })}
          </p>
          <div className="pf-form__actions">
            <button type="button" className="button button--secondary" onClick={restart}>
              {t('import.another')}
            </button>
            <AppLink to={backTo} className="button button--primary" data-testid="import-back">
              {t('import.toPortfolio')}
            </AppLink>
          </div>
        </section>
      )}
    </div>
  );
}

interface PreviewProps {
  stage: Extract<Stage, { step: 'preview' }>;
  applying: boolean;
  onApply: () => void;
  onRestart: () => void;
  locale: 'ko' | 'en';
}

/**
 * A large file's way to the server: the upload as a bar with its share, then, once
 * every byte is sent, an indeterminate bar while the server checks (or stores) the rows.
 */
function ImportProgress({ progress }: { progress: UploadProgress | null }) {
  const t = usePortfolioT();
  const locale = useLocale();
  const uploading = progress !== null && progress.sent < progress.total;
  const share = uploading ? Math.floor((progress.sent / progress.total) * 100) : undefined;
  const label = uploading ? t('import.uploading', { percent: formatNumber(share ?? 0, locale) }) : t('import.checking');
  return (
    <div className="pf-progress" data-testid="import-progress" data-phase={uploading ? 'upload' : 'server'}>
      <progress className="pf-progress__bar" max={100} value={share} aria-label={label} />
      <span className="pf-progress__label" role="status">
        {label}
      </span>
    </div>
  );
}

function PreviewStep({ stage, applying, onApply, onRestart, locale }: PreviewProps) {
  const t = usePortfolioT();
  const { preview } = stage;
  const fresh = preview.new_rows;
  const bad = preview.errors.length > 0;
  const badLines = useMemo(() => new Set(preview.errors.map((e) => e.line)).size, [preview.errors]);
  const [errorsShown, setErrorsShown] = useState(IMPORT_ERRORS_SHOWN);
  const blockedId = useId();
  const skippedId = useId();
  const size = formatNumber(Math.max(1, Math.ceil(stage.size / 1024)), locale) + ' KB';
  const count = (n: number) => formatNumber(n, locale);
  const truncated = preview.total_rows > preview.rows.length;
  const hiddenErrors = preview.errors.length - errorsShown;

  return (
    <section className="card pf-section" data-testid="import-preview" aria-labelledby="pf-preview-title">
      <h2 id="pf-preview-title" className="pf-section__title">
        {t('import.file', { name: stage.name, size })}
      </h2>
      <div className="pf-import-summary">
        <p data-testid="import-summary">
          {t('import.summary', { total: count(preview.total_rows), fresh: count(fresh), duplicates: count(preview.duplicate_rows) })}
        </p>
        <p data-testid="import-format">
          {t('import.format', {
            format: t(`import.formats.${preview.format}`),
            encoding: preview.encoding === 'euc-kr' ? 'EUC-KR' : 'UTF-8',
          })}
        </p>
        {preview.first_date && preview.last_date && (
          <p className="pf-muted" data-testid="import-dates">
            {t('import.dates', { first: formatTradeDate(preview.first_date, locale), last: formatTradeDate(preview.last_date, locale) })}
          </p>
        )}
      </div>

      {bad && (
        <div className="pf-issues pf-issues--error" role="alert" data-testid="import-errors">
          <h3 className="pf-issues__title">{t('import.errorsTitle', { count: count(badLines) })}</h3>
          <ul>
            {preview.errors.slice(0, errorsShown).map((e, i) => (
              <li key={`${e.line}-${e.column ?? ''}-${i}`} data-testid="import-error" data-line={e.line}>
                <strong>{t('import.errorLine', { line: e.line })}</strong> ·{' '}
                {e.column ? t('import.errorColumn', { column: e.column }) : t('import.errorNoColumn')}: {issueMessage(e)}
              </li>
            ))}
          </ul>
          {hiddenErrors > 0 && (
            <button type="button" className="pf-link-button" onClick={() => setErrorsShown((n) => n + IMPORT_ERRORS_SHOWN)} data-testid="import-errors-more">
              {t('import.moreErrors', { count: count(Math.min(hiddenErrors, IMPORT_ERRORS_SHOWN)), rest: count(hiddenErrors) })}
            </button>
          )}
        </div>
      )}
      {(preview.warnings.length > 0 || preview.ignored_columns.length > 0) && (
        <div className="pf-issues" data-testid="import-warnings">
          <h3 className="pf-issues__title">{t('import.warningsTitle')}</h3>
          <ul>
            {preview.warnings.slice(0, IMPORT_ERRORS_SHOWN).map((w, i) => (
              <li key={`w-${w.line}-${i}`}>
                <strong>{t('import.errorLine', { line: w.line })}</strong> · {issueMessage(w)}
              </li>
            ))}
            {preview.warnings.length > IMPORT_ERRORS_SHOWN && <li>{t('import.moreWarnings', { count: count(preview.warnings.length - IMPORT_ERRORS_SHOWN) })}</li>}
            {preview.ignored_columns.length > 0 && <li>{t('import.ignoredColumns', { columns: preview.ignored_columns.join(', ') })}</li>}
          </ul>
        </div>
      )}

      {preview.skipped.length > 0 && (
        <section className="pf-issues" data-testid="import-skipped" aria-labelledby={skippedId}>
          <h3 id={skippedId} className="pf-issues__title">
            {t('import.skippedTitle', { count: count(preview.skipped.length) })}
          </h3>
          <ul>
            {preview.skipped.slice(0, IMPORT_ERRORS_SHOWN).map((s) => (
              <li key={`s-${s.line}`} data-testid="import-skipped-row" data-line={s.line}>
                {t('import.skippedRow', { line: s.line, label: s.label || '—', reason: t(`import.skipReasons.${s.reason}`) })}
              </li>
            ))}
          </ul>
        </section>
      )}

      {preview.rows.length > 0 && truncated && (
        <p className="field__hint" data-testid="import-rows-truncated">
          {t('import.firstRows', { count: count(preview.rows.length) })}
        </p>
      )}
      {preview.rows.length > 0 && (
        <div className="pf-table-wrap">
          <table className="pf-table pf-table--import" data-testid="import-rows">
            <thead>
              <tr>
                <th scope="col">{t('import.line')}</th>
                <th scope="col">{t('transactions.date')}</th>
                <th scope="col">{t('transactions.kind')}</th>
                <th scope="col">{t('transactions.instrument')}</th>
                <th scope="col" className="pf-num">
                  {t('form.quantity')}
                </th>
                <th scope="col" className="pf-num">
                  {t('form.price')}
                </th>
                <th scope="col">{t('import.status')}</th>
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((r, i) => (
                <tr key={`${r.line}-${i}`} className={r.duplicate ? 'pf-row--duplicate' : undefined} data-testid="import-row" data-duplicate={r.duplicate}>
                  <td>{r.line}</td>
                  <td>{formatTradeDate(r.transaction.trade_date, locale)}</td>
                  <td>{t(`kinds.${r.transaction.kind}`)}</td>
                  <td>{r.transaction.instrument_id ?? ''}</td>
                  <td className="pf-num">{r.transaction.kind === 'split' ? '' : formatQuantity(r.transaction.quantity, locale)}</td>
                  <td className="pf-num">
                    {r.transaction.kind === 'split' ? (
                      r.transaction.split ? `${r.transaction.split.numerator}:${r.transaction.split.denominator}` : ''
                    ) : (
                      <Amount value={r.transaction.price} currency={r.transaction.currency} unit size="sm" />
                    )}
                  </td>
                  <td>
                    <span className={`pf-badge${r.duplicate ? '' : ' pf-badge--new'}`}>{r.duplicate ? t('import.duplicate') : t('import.fresh')}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {bad ? (
        <p id={blockedId} className="field__error">
          {t('import.applyBlocked')}
        </p>
      ) : (
        fresh === 0 && (
          <p id={blockedId} className="field__hint">
            {t('import.nothingNew')}
          </p>
        )
      )}
      <div className="pf-form__actions">
        <button type="button" className="button button--secondary" onClick={onRestart} disabled={applying}>
          {t('import.another')}
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={onApply}
          disabled={bad || fresh === 0 || applying}
          aria-describedby={bad || fresh === 0 ? blockedId : undefined}
          data-testid="import-apply"
        >
          {applying ? t('import.applying') : t('import.apply', { count: count(fresh) })}
        </button>
      </div>
    </section>
  );
}
