import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/renderApp';

describe('language picker route modal', () => {
  it('opens from the URL parameter as an accessible dialog', async () => {
    renderApp({ route: '/settings?language=routeModalTrue' });
    const dialog = await screen.findByTestId('modal-language');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByRole('heading', { name: '언어 선택' })).toBeTruthy();
    expect(within(dialog).getByRole('radio', { name: '한국어' })).toHaveProperty('checked', true);
    expect(within(dialog).getByRole('radio', { name: 'English' })).toHaveProperty('checked', false);
  });

  it('switches the app to English, remembers it, and sets <html lang>', async () => {
    renderApp({ route: '/settings?language=routeModalTrue' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    const dialog = await screen.findByTestId('modal-language');

    fireEvent.click(within(dialog).getByRole('radio', { name: 'English' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeTruthy();
    expect(within(screen.getByTestId('modal-language')).getByRole('heading', { name: 'Choose language' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en');
    expect(window.localStorage.getItem('MOAT_LOCALE')).toBe('en');
    expect(document.title).toBe('Settings — Moat');
    expect(await screen.findByText('Language changed to English.')).toBeTruthy();
  });

  it('closes on Escape and removes the parameter', async () => {
    const app = renderApp({ route: '/settings?language=routeModalTrue' });
    await screen.findByTestId('modal-language');
    fireEvent.keyDown(document, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('modal-language')).toBeNull());
    expect(app.location().search).toBe('');
    expect(app.location().pathname).toBe('/settings');
  });

  it('opens from the header globe, pushing history, and a backdrop click goes back', async () => {
    const app = renderApp({ route: '/' });
    await screen.findByRole('heading', { level: 1 });
    fireEvent.click(screen.getByTestId('open-language'));
    await screen.findByTestId('modal-language');
    expect(app.location().search).toBe('?language=routeModalTrue');

    fireEvent.mouseDown(screen.getByTestId('modal-language-backdrop'));
    await waitFor(() => expect(screen.queryByTestId('modal-language')).toBeNull());
    expect(app.location().search).toBe('');
  });

  it('opens from the settings page', async () => {
    renderApp({ route: '/settings' });
    fireEvent.click(await screen.findByTestId('settings-language'));
    expect(await screen.findByTestId('modal-language')).toBeTruthy();
  });
});
