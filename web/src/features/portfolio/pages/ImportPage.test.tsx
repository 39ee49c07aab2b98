import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { ToastArea } from '@/shared/ui/toast';
import { apiError, importPreview, portfolio, portfolioApi, TRANSACTIONS } from '../lib/test-fixtures';
import { IMPORT_ERRORS_SHOWN } from './ImportPage';
import { ImportRoute, messagesReady } from '.';
import { IMPORT_MAX_BYTES, IMPORT_PREVIEW_ROWS, type ImportError } from '../api/import';

const GOOD_CSV = 'date,type,instrument,quantity,price,currency\n2026-03-01,deposit,,,10000000,KRW\n2026-03-05,buy,KRX:005930,100,65000,KRW\n';
const BAD_CSV = 'date,type,instrument,quantity,price\n2026-13-01,buy,KRX:005930,1.5,-3\nyesterday,매수,XX,1,1\n';

const BAD_PREVIEW = importPreview({
  total_rows: 0,
  new_rows: 0,
  duplicate_rows: 0,
  first_date: null,
  last_date: null,
  rows: [],
  errors: [
    { line: 2, column: 'date', code: 'invalid_date', message: 'not a date: 2026-13-01' },
    { line: 2, column: 'quantity', code: 'fractional_shares', message: 'KRX shares are whole' },
    { line: 3, column: 'instrument', code: 'invalid_instrument', message: 'not an instrument: XX' },
    // A code newer than the app: typed as the API's codes, it is still shown.
    { line: 3, column: null, code: 'something_new' as ImportError['code'], message: 'a problem the app has no words for' },
  ],
  warnings: [{ line: 4, column: 'instrument', code: 'dividend_not_held', message: 'not held' }],
  ignored_columns: ['memo2'],
});

const fallback = (url: URL) =>
  url.pathname === '/api/meta' ? jsonResponse(TEST_META) : jsonResponse({ code: 'not_found', message: 'nf', request_id: 't' }, { status: 404 });

function importApi(overrides: Parameters<typeof portfolioApi>[0] = {}) {
  return portfolioApi(
    {
      'GET /api/portfolios/7': () => portfolio(),
      'POST /api/portfolios/7/import/preview': (call) => (call.body === BAD_CSV ? BAD_PREVIEW : importPreview()),
      'POST /api/portfolios/7/import': () => ({ imported: 1, skipped_duplicates: 1 }),
      ...overrides,
    },
    fallback,
  );
}

function renderImport(api: ReturnType<typeof importApi>) {
  return renderApp({
    route: '/portfolios/7/import',
    api: api.handler,
    ui: (
      <>
        <ToastArea />
        <Routes>
          <Route path="/portfolios/:id/import" element={<ImportRoute />} />
          <Route path="/portfolios/:id" element={<p data-testid="detail-page" />} />
        </Routes>
      </>
    ),
  });
}

function choose(csv: string, name = 'trades.csv') {
  const file = new File([csv], name, { type: 'text/csv' });
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [file] } });
}

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
});

describe('import wizard', () => {
  it('previews a good file with duplicates marked, then imports it', async () => {
    const api = importApi();
    renderImport(api);
    choose(GOOD_CSV);
    const preview = await screen.findByTestId('import-preview');
    const [call] = api.find('POST', '/api/portfolios/7/import/preview');
    expect(call!.body).toBe(GOOD_CSV);
    // The file's bytes, not text read here: the server tells UTF-8 from EUC-KR.
    expect(call!.contentType).toBe('text/csv');
    expect(within(preview).getByTestId('import-format').textContent).toBe('형식: Moat 형식 (UTF-8)');
    expect(within(preview).getByTestId('import-summary').textContent).toBe('총 2건 (새 거래 1건, 이미 있는 거래 1건)');
    expect(within(preview).getByTestId('import-dates').textContent).toBe('거래일 2026. 3. 1. ~ 2026. 3. 5.');
    // Every row is shown: no note that some are left out.
    expect(within(preview).queryByTestId('import-rows-truncated')).toBeNull();
    const rows = within(preview).getAllByTestId('import-row');
    expect(rows.map((r) => r.getAttribute('data-duplicate'))).toEqual(['true', 'false']);
    expect(within(rows[0]!).getByText('이미 있음')).toBeTruthy();
    expect(within(rows[1]!).getByText('새 거래')).toBeTruthy();
    expect(api.find('POST', '/api/portfolios/7/import')).toHaveLength(0);

    const apply = screen.getByTestId('import-apply') as HTMLButtonElement;
    expect(apply.disabled).toBe(false);
    expect(apply.textContent).toBe('새 거래 1건 가져오기');
    fireEvent.click(apply);
    expect((await screen.findByTestId('import-done')).textContent).toContain('1건을 가져왔습니다. 이미 있던 1건은 건너뛰었습니다.');
    expect(api.find('POST', '/api/portfolios/7/import')[0]!.body).toBe(GOOD_CSV);
    fireEvent.click(screen.getByTestId('import-back'));
    await screen.findByTestId('detail-page');
  });

  it('shows the upload share of a large file, then that the server is checking it', async () => {
    // A browser reporting the upload in steps, answering only when the test says so.
    let answer: () => void = () => {};
    class SlowXhr {
      upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      status = 0;
      responseText = '';
      open() {}
      setRequestHeader() {}
      getResponseHeader() {
        return 'application/json';
      }
      send() {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 400, total: 1000 });
        answer = () => {
          this.upload.onprogress?.({ lengthComputable: true, loaded: 1000, total: 1000 });
          setTimeout(() => {
            this.status = 200;
            this.responseText = JSON.stringify(importPreview());
            this.onload?.();
          }, 50);
        };
      }
    }
    vi.stubGlobal('XMLHttpRequest', SlowXhr);
    renderImport(importApi());
    choose(GOOD_CSV);
    const progress = await screen.findByTestId('import-progress');
    expect(progress.getAttribute('data-phase')).toBe('upload');
    expect(within(progress).getByRole('status').textContent).toBe('올리는 중… 40%');
    expect((progress.querySelector('progress') as HTMLProgressElement).value).toBe(40);
    act(() => answer());
    await waitFor(() => expect(screen.getByTestId('import-progress').getAttribute('data-phase')).toBe('server'));
    expect(screen.getByTestId('import-progress').textContent).toContain('서버에서 행을 확인하는 중…');
    await screen.findByTestId('import-preview');
    expect(screen.queryByTestId('import-progress')).toBeNull();
  });

  it('names a broker file’s format and encoding, and lists its rows that are not trades', async () => {
    const kiwoom = importPreview({
      format: 'kiwoom',
      encoding: 'euc-kr',
      skipped: [
        { line: 4, reason: 'interest', label: '예탁금이용료' },
        { line: 8, reason: 'transfer', label: '대체입고' },
      ],
    });
    renderImport(importApi({ 'POST /api/portfolios/7/import/preview': () => kiwoom }));
    choose(GOOD_CSV, 'kiwoom.csv');
    const preview = await screen.findByTestId('import-preview');
    expect(within(preview).getByTestId('import-format').textContent).toBe('형식: 키움증권 거래내역 (EUC-KR)');
    const skipped = within(preview).getByTestId('import-skipped');
    expect(within(skipped).getByRole('heading').textContent).toBe('가져오지 않는 줄 2개 (거래가 아님)');
    expect(within(skipped).getAllByTestId('import-skipped-row').map((r) => r.textContent)).toEqual([
      '4번째 줄 · 예탁금이용료: 예탁금 이자',
      '8번째 줄 · 대체입고: 매매 없는 입고·출고',
    ]);
    // Skipped lines do not block the import.
    expect((screen.getByTestId('import-apply') as HTMLButtonElement).disabled).toBe(false);

    await setLocale('en');
    expect((await screen.findByTestId('import-format')).textContent).toBe('Format: Kiwoom Securities trade history (EUC-KR)');
    await setLocale('ko');
  });

  it('names each bad line (line, column, problem) and keeps the import disabled', async () => {
    renderImport(importApi());
    choose(BAD_CSV);
    const errors = await screen.findByTestId('import-errors');
    expect(within(errors).getByRole('heading').textContent).toBe('고쳐야 할 줄 2개');
    expect(within(errors).getAllByTestId('import-error').map((e) => e.textContent)).toEqual([
      '2번째 줄 · ‘date’ 열: 날짜를 읽을 수 없습니다. 예: 2026-03-04',
      '2번째 줄 · ‘quantity’ 열: 국내 주식은 1주 단위로만 거래합니다.',
      '3번째 줄 · ‘instrument’ 열: 종목을 읽을 수 없습니다. 예: KRX:005930, NASDAQ:AAPL, 005930',
      '3번째 줄 · 줄 전체: 요청을 처리하지 못했습니다. 잠시 후 다시 시도해 주세요.',
    ]);
    expect(within(screen.getByTestId('import-warnings')).getByText('읽지 않은 열: memo2')).toBeTruthy();
    const apply = screen.getByTestId('import-apply') as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    expect(document.getElementById(apply.getAttribute('aria-describedby')!)!.textContent).toBe('오류가 있는 줄을 고친 뒤 다시 올려 주세요.');
  });

  it('shows the errors of an import the server refuses, and nothing is stored', async () => {
    const api = importApi({
      'POST /api/portfolios/7/import': () =>
        apiError(422, 'invalid_import', { errors: [{ line: 3, column: 'quantity', code: 'insufficient_quantity', message: 'sells more than held' }] }),
    });
    renderImport(api);
    choose(GOOD_CSV);
    fireEvent.click(await screen.findByTestId('import-apply'));
    const errors = await screen.findByTestId('import-errors');
    expect(within(errors).getByTestId('import-error').textContent).toBe('3번째 줄 · ‘quantity’ 열: 그날 보유한 수량보다 많이 팔 수 없습니다.');
    expect((screen.getByTestId('import-apply') as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByText('가져오지 못했습니다. 아무것도 저장되지 않았습니다.')).toBeTruthy();
  });

  it('a large file: the summary counts every row, the table shows the first 100 and says so', async () => {
    const rows = Array.from({ length: IMPORT_PREVIEW_ROWS }, (_, i) => ({
      line: i + 2,
      transaction: { ...TRANSACTIONS[2]!, id: undefined, trade_date: '2020-01-02' } as never,
      duplicate: i < 5,
    }));
    const large = importPreview({ total_rows: 12345, new_rows: 12000, duplicate_rows: 345, first_date: '2020-01-02', last_date: '2026-11-20', rows });
    renderImport(importApi({ 'POST /api/portfolios/7/import/preview': () => large }));
    choose(GOOD_CSV);
    const preview = await screen.findByTestId('import-preview');
    expect(within(preview).getByTestId('import-summary').textContent).toBe('총 12,345건 (새 거래 12,000건, 이미 있는 거래 345건)');
    expect(within(preview).getByTestId('import-dates').textContent).toBe('거래일 2020. 1. 2. ~ 2026. 11. 20.');
    expect(within(preview).getByTestId('import-rows-truncated').textContent).toBe('처음 100건만 보여 줍니다.');
    expect(within(preview).getAllByTestId('import-row')).toHaveLength(100);
    // The import takes every new row, not only those shown.
    expect(screen.getByTestId('import-apply').textContent).toBe('새 거래 12,000건 가져오기');
  });

  it('lists the errors of a file with thousands a batch at a time, every one within reach', async () => {
    const errorsOf = (n: number): ImportError[] =>
      Array.from({ length: n }, (_, i) => ({ line: i + 2, column: 'date', code: 'invalid_date', message: 'not a date' }));
    let errors = errorsOf(2500);
    renderImport(importApi({ 'POST /api/portfolios/7/import/preview': () => importPreview({ rows: [], total_rows: 0, new_rows: 0, duplicate_rows: 0, errors }) }));
    choose(BAD_CSV);
    let box = await screen.findByTestId('import-errors');
    expect(within(box).getByRole('heading').textContent).toBe('고쳐야 할 줄 2,500개');
    expect(box.querySelectorAll('[data-testid="import-error"]')).toHaveLength(IMPORT_ERRORS_SHOWN);
    expect(within(box).getByTestId('import-errors-more').textContent).toBe('200개 더 보기 (남은 2,300개)');
    fireEvent.click(within(box).getByTestId('import-errors-more'));
    expect(box.querySelectorAll('[data-testid="import-error"]')).toHaveLength(2 * IMPORT_ERRORS_SHOWN);
    expect(within(box).getByTestId('import-errors-more').textContent).toBe('200개 더 보기 (남은 2,100개)');

    // To the last one.
    errors = errorsOf(450);
    fireEvent.click(screen.getByRole('button', { name: '다른 파일 올리기' }));
    choose(BAD_CSV);
    box = await screen.findByTestId('import-errors');
    fireEvent.click(within(box).getByTestId('import-errors-more'));
    expect(within(box).getByTestId('import-errors-more').textContent).toBe('50개 더 보기 (남은 50개)');
    fireEvent.click(within(box).getByTestId('import-errors-more'));
    const shown = box.querySelectorAll('[data-testid="import-error"]');
    expect(shown).toHaveLength(450);
    expect(shown[449]!.getAttribute('data-line')).toBe('451');
    expect(within(box).queryByTestId('import-errors-more')).toBeNull();
  });

  it('says the row and size limits (413) in the page’s language', async () => {
    let answer = apiError(413, 'too_many_rows');
    const api = importApi({ 'POST /api/portfolios/7/import/preview': () => answer });
    renderImport(api);
    choose(GOOD_CSV);
    await waitFor(() => expect(screen.getByTestId('import-problem').textContent).toBe('한 번에 최대 20,000건까지 가져올 수 있습니다. 파일을 나눠 주세요.'));
    answer = apiError(413, 'payload_too_large');
    choose(GOOD_CSV);
    await waitFor(() => expect(screen.getByTestId('import-problem').textContent).toBe('파일이 5MB를 넘습니다.'));
    // A file over the limit is not even sent.
    const sent = api.find('POST', '/api/portfolios/7/import/preview').length;
    choose('x'.repeat(IMPORT_MAX_BYTES + 1));
    await waitFor(() => expect(screen.getByTestId('import-problem').textContent).toBe('파일이 5MB를 넘습니다.'));
    expect(api.find('POST', '/api/portfolios/7/import/preview')).toHaveLength(sent);

    await setLocale('en');
    answer = apiError(413, 'too_many_rows');
    choose(GOOD_CSV);
    await waitFor(() => expect(screen.getByTestId('import-problem').textContent).toBe('You can import at most 20,000 rows at a time. Please split the file.'));
  });

  it('an import refused for its size says so, and that nothing was saved', async () => {
    renderImport(importApi({ 'POST /api/portfolios/7/import': () => apiError(413, 'too_many_rows') }));
    choose(GOOD_CSV);
    fireEvent.click(await screen.findByTestId('import-apply'));
    expect(await screen.findByText('한 번에 최대 20,000건까지 가져올 수 있습니다. 파일을 나눠 주세요. 아무것도 저장되지 않았습니다.')).toBeTruthy();
  });

  it('refuses what is not a CSV before sending anything', async () => {
    const api = importApi();
    renderImport(api);
    const file = new File(['x'], 'photo.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [file] } });
    await waitFor(() => expect(screen.getByTestId('import-problem').textContent).toBe('CSV 파일만 올릴 수 있습니다.'));
    expect(api.find('POST', '/api/portfolios/7/import/preview')).toHaveLength(0);
  });

  it('reads in English', async () => {
    await setLocale('en');
    renderImport(importApi());
    choose(BAD_CSV);
    const errors = await screen.findByTestId('import-errors');
    expect(within(errors).getAllByTestId('import-error')[0]!.textContent).toBe('Line 2 · column “date”: Cannot read the date, e.g. 2026-03-04.');
  });
});
