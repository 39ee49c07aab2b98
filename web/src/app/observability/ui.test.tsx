import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken } from '@/shared/session/session';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { startRecording } from './index';
import type { Recorder } from './recorder';
import { RecorderIdentity } from './RecorderIdentity';

const recorder = vi.hoisted(() => ({
  start: vi.fn(),
  stop: vi.fn(),
  setIdentity: vi.fn(),
  report: vi.fn(),
  feedback: vi.fn((): boolean => true),
  state: vi.fn(),
  dispose: vi.fn(),
}));
vi.mock('./load', () => ({ loadRecorder: async () => recorder as unknown as Recorder }));

beforeAll(() => {
  startRecording();
});

beforeEach(() => {
  vi.clearAllMocks();
  recorder.feedback.mockReturnValue(true);
});

describe('recorder identity', () => {
  it('identifies the logged-in member by user id and nickname, and a visitor after log-out', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7, nickname: '개미' }));
    renderApp({ ui: <RecorderIdentity /> });
    await waitFor(() => expect(recorder.setIdentity).toHaveBeenCalledWith({ id: '7', nickname: '개미' }));

    act(() => clearToken());
    await waitFor(() => expect(recorder.setIdentity).toHaveBeenLastCalledWith(null));
  });

  it('a visitor is a visitor', async () => {
    renderApp({ ui: <RecorderIdentity /> });
    await waitFor(() => expect(recorder.setIdentity).toHaveBeenCalledWith(null));
  });
});

describe('error boundary reporting', () => {
  it('reports what a boundary caught, with the component stack', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = new Error('holdings exploded');
    function Holdings(): never {
      throw error;
    }
    render(
      <ErrorBoundary>
        <Holdings />
      </ErrorBoundary>,
    );
    expect(screen.getByTestId('error-boundary')).toBeTruthy();
    await waitFor(() => expect(recorder.report).toHaveBeenCalledOnce());
    const [reported, details] = recorder.report.mock.calls[0] as unknown as [unknown, { componentStack?: string }];
    expect(reported).toBe(error);
    expect(details.componentStack).toContain('Holdings');
    consoleError.mockRestore();
  });
});

describe('feedback form', () => {
  async function openForm(route = '/settings?feedback=routeModalTrue') {
    const app = renderApp({ route });
    const dialog = await screen.findByTestId('modal-feedback');
    return { app, dialog };
  }

  it('opens from the settings page as a route modal', async () => {
    const app = renderApp({ route: '/settings' });
    fireEvent.click(await screen.findByTestId('settings-feedback'));
    const dialog = await screen.findByTestId('modal-feedback');
    expect(app.location().search).toBe('?feedback=routeModalTrue');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(within(dialog).getByRole('heading', { name: '의견 보내기' })).toBeTruthy();
  });

  it('sends the text, name and email to the session, then thanks and closes', async () => {
    const { app, dialog } = await openForm();
    fireEvent.change(within(dialog).getByLabelText('의견'), { target: { value: '  차트가 느려요  ' } });
    fireEvent.change(within(dialog).getByLabelText('이름 (선택)'), { target: { value: '개미' } });
    fireEvent.change(within(dialog).getByLabelText('이메일 (선택)'), { target: { value: 'ant@example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '보내기' }));

    expect(await screen.findByText('의견을 보냈습니다. 고맙습니다.')).toBeTruthy();
    expect(recorder.feedback).toHaveBeenCalledExactlyOnceWith({ verbatim: '차트가 느려요', userName: '개미', userEmail: 'ant@example.com' });
    await waitFor(() => expect(screen.queryByTestId('modal-feedback')).toBeNull());
    expect(app.location().search).toBe('');
  });

  it('starts the name as the member’s nickname', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7, nickname: '황소' }));
    const { dialog } = await openForm();
    expect(within(dialog).getByLabelText<HTMLInputElement>('이름 (선택)').value).toBe('황소');
  });

  it('asks for the text, and for a plausible email when one is given', async () => {
    const { dialog } = await openForm();
    fireEvent.click(within(dialog).getByRole('button', { name: '보내기' }));
    const verbatim = within(dialog).getByLabelText('의견');
    expect(await within(dialog).findByText('의견을 입력해 주세요.')).toBeTruthy();
    expect(verbatim.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(verbatim);

    fireEvent.change(verbatim, { target: { value: '좋아요' } });
    fireEvent.change(within(dialog).getByLabelText('이메일 (선택)'), { target: { value: 'not an email' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '보내기' }));
    expect(await within(dialog).findByText('이메일 주소를 확인해 주세요.')).toBeTruthy();
    expect(recorder.feedback).not.toHaveBeenCalled();
  });

  it('says so when neither the recorder nor the server takes it, and keeps the form', async () => {
    recorder.feedback.mockReturnValue(false);
    const { dialog } = await openForm();
    fireEvent.change(within(dialog).getByLabelText('의견'), { target: { value: '좋아요' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '보내기' }));
    expect(await screen.findByText('지금은 의견을 보낼 수 없습니다. 잠시 후 다시 시도해 주세요.')).toBeTruthy();
    expect(screen.getByTestId('modal-feedback')).toBeTruthy();
  });
});
