import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './ErrorBoundary';

describe('ErrorBoundary', () => {
  it('shows a retry in place of a crashed part, and recovers when retried', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    let broken = true;
    function Flaky() {
      if (broken) throw new Error('boom');
      return <p>recovered</p>;
    }
    const onReset = vi.fn();

    render(
      <ErrorBoundary onReset={onReset}>
        <Flaky />
      </ErrorBoundary>,
    );
    const fallback = screen.getByTestId('error-boundary');
    expect(fallback.getAttribute('role')).toBe('alert');
    expect(fallback.textContent).toContain('화면을 표시하지 못했습니다');

    broken = false;
    fireEvent.click(screen.getByRole('button', { name: '다시 시도' }));
    expect(screen.getByText('recovered')).toBeTruthy();
    expect(screen.queryByTestId('error-boundary')).toBeNull();
    expect(onReset).toHaveBeenCalledOnce();
    consoleError.mockRestore();
  });

  it('resets itself when a reset key changes', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    let broken = true;
    function Flaky() {
      if (broken) throw new Error('boom');
      return <p>fine</p>;
    }
    const { rerender } = render(
      <ErrorBoundary resetKeys={['/a']}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByTestId('error-boundary')).toBeTruthy();
    broken = false;
    rerender(
      <ErrorBoundary resetKeys={['/b']}>
        <Flaky />
      </ErrorBoundary>,
    );
    expect(screen.getByText('fine')).toBeTruthy();
    consoleError.mockRestore();
  });
});
