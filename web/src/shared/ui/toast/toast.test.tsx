import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ToastArea, ToastProvider, TOAST_DURATION_MS, useToast } from '.';

function Pusher({ message, durationMs }: { message: string; durationMs?: number }) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast.show(message, durationMs === undefined ? {} : { durationMs })}>
      push {message}
    </button>
  );
}

function setup(message = 'Saved', durationMs?: number) {
  return render(
    <ToastProvider>
      <Pusher message={message} durationMs={durationMs} />
      <ToastArea />
    </ToastProvider>,
  );
}

describe('toasts', () => {
  it('shows a pushed toast in the live region and dismisses it after its time', () => {
    vi.useFakeTimers();
    setup();
    const area = screen.getByTestId('toast-area');
    expect(area.getAttribute('aria-live')).toBe('polite');

    fireEvent.click(screen.getByRole('button', { name: 'push Saved' }));
    expect(within(area).getByText('Saved')).toBeTruthy();

    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(within(area).getByText('Saved')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(within(area).queryByText('Saved')).toBeNull();
  });

  it('honours a custom duration and can be dismissed by hand', () => {
    vi.useFakeTimers();
    setup('Short', 500);
    fireEvent.click(screen.getByRole('button', { name: 'push Short' }));
    fireEvent.click(screen.getByRole('button', { name: 'push Short' }));
    expect(screen.getAllByTestId('toast')).toHaveLength(2);

    fireEvent.click(screen.getAllByRole('button', { name: '알림 닫기' })[0]!);
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(500));
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });

  it('keeps at most three toasts, dropping the oldest', () => {
    setup('Many');
    const button = screen.getByRole('button', { name: 'push Many' });
    for (let i = 0; i < 5; i++) fireEvent.click(button);
    expect(screen.getAllByTestId('toast')).toHaveLength(3);
  });

  it('useToast outside the provider is a programming error', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Pusher message="x" />)).toThrow(/ToastProvider/);
    consoleError.mockRestore();
  });
});
