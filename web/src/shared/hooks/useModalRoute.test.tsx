import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate, useNavigationType } from 'react-router';
import { useModalRoute } from './useModalRoute';

function setup(entry: string | { pathname: string; search?: string; state?: unknown }, name = 'share') {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={['/home', entry]} initialIndex={1}>
      {children}
    </MemoryRouter>
  );
  return renderHook(
    () => ({
      modal: useModalRoute(name),
      other: useModalRoute('other'),
      location: useLocation(),
      navigationType: useNavigationType(),
      navigate: useNavigate(),
    }),
    { wrapper },
  );
}

describe('useModalRoute', () => {
  it('open pushes ?<name>=routeModalTrue keeping other params; close goes back one step', () => {
    const { result } = setup('/stocks/005930?tab=news#top');
    expect(result.current.modal.isOpen).toBe(false);

    act(() => result.current.modal.open());
    expect(result.current.navigationType).toBe('PUSH');
    expect(result.current.location.pathname).toBe('/stocks/005930');
    expect(result.current.location.search).toBe('?tab=news&share=routeModalTrue');
    expect(result.current.location.hash).toBe('#top');
    expect(result.current.modal.isOpen).toBe(true);
    expect(result.current.other.isOpen).toBe(false);

    act(() => result.current.modal.close());
    expect(result.current.navigationType).toBe('POP');
    expect(result.current.location.search).toBe('?tab=news');
    expect(result.current.modal.isOpen).toBe(false);

    // The history entry before the modal is untouched: one more back reaches /home.
    act(() => void result.current.navigate(-1));
    expect(result.current.location.pathname).toBe('/home');
  });

  it('opening twice pushes once', () => {
    const { result } = setup('/a');
    act(() => result.current.modal.open());
    act(() => result.current.modal.open());
    act(() => result.current.modal.close());
    expect(result.current.location.pathname).toBe('/a');
    expect(result.current.location.search).toBe('');
  });

  it('browser back closes the modal', () => {
    const { result } = setup('/a');
    act(() => result.current.modal.open());
    act(() => void result.current.navigate(-1));
    expect(result.current.modal.isOpen).toBe(false);
  });

  it('a page loaded with the parameter closes by replacing the URL, not leaving the page', () => {
    const { result } = setup('/a?share=routeModalTrue&x=1');
    expect(result.current.modal.isOpen).toBe(true);
    act(() => result.current.modal.close());
    expect(result.current.navigationType).toBe('REPLACE');
    expect(result.current.location.pathname).toBe('/a');
    expect(result.current.location.search).toBe('?x=1');
    expect(result.current.modal.isOpen).toBe(false);
  });

  it('only the exact value routeModalTrue counts as open', () => {
    const { result } = setup('/a?share=true');
    expect(result.current.modal.isOpen).toBe(false);
  });

  it('keeps the page state when pushing and closes nested modals in order', () => {
    const { result } = setup({ pathname: '/a', state: { from: 'list' } });
    act(() => result.current.modal.open());
    expect(result.current.location.state).toMatchObject({ from: 'list' });
    act(() => result.current.other.open());
    expect(result.current.location.search).toBe('?share=routeModalTrue&other=routeModalTrue');
    act(() => result.current.other.close());
    expect(result.current.location.search).toBe('?share=routeModalTrue');
    act(() => result.current.modal.close());
    expect(result.current.location.search).toBe('');
    expect(result.current.location.state).toEqual({ from: 'list' });
  });
});
