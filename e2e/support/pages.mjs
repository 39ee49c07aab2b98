/**
 * Page objects. `AppPage` drives the Moat web app in a tab or inside the web-view host's
 * frame; `HostPage` drives `/webview-host.html` (the recording stand-in for the mobile app).
 */
import assert from 'node:assert/strict';
import { TIMEOUT_MS, eventually } from './fixtures.mjs';

/**
 * Each route's heading. The pages have no test ids of their own (only the 404 page has
 * one), so their root classes are used; during a client-side navigation React keeps the
 * previous page on screen until the next one's code has loaded, so "an h1" is not enough.
 */
const PAGE_HEADINGS = {
  '/': '#main .home h1',
  '/settings': '#main .settings h1',
  '/login': '#main [data-testid="login-form"]',
  '/signup': '#main [data-testid="signup-form"]',
  '/settings/account': '#main [data-testid="account-page"] h1',
  '/search': '#main .search-page h1',
  '/favorites': '#main [data-testid="favorites-page"] h1',
  '/portfolios': '#main [data-testid="portfolio-list-page"] h1',
  '/dividends': '#main [data-testid="dividends-page"] h1',
};
const NOT_FOUND_HEADING = '#main [data-testid="not-found"] h1';
/** A stock's page once its instrument has loaded (or the stock's own "not found"). */
const STOCK_HEADING = '#main [data-testid="stock-page"] h1, #main [data-testid="stock-not-found"] h1';

/** The heading that shows `pathname`'s page is on screen. */
function headingFor(pathname) {
  if (/^\/stocks\/[^/]+\/?$/.test(pathname)) return STOCK_HEADING;
  if (/^\/portfolios\/\d+\/?$/.test(pathname)) return '#main [data-testid="portfolio-detail-page"] h1';
  if (/^\/portfolios\/\d+\/transactions\/new\/?$/.test(pathname)) return '#main [data-testid="transaction-form"]';
  return PAGE_HEADINGS[pathname] ?? NOT_FOUND_HEADING;
}

/** The app: a page, or the app frame inside the host page. */
export class AppPage {
  /**
   * @param {import('playwright-core').Page} page the tab
   * @param {import('playwright-core').Frame} [frame] the frame the app runs in (default: the main frame)
   */
  constructor(page, frame = page.mainFrame()) {
    this.page = page;
    this.frame = frame;
  }

  /** Opens `path` and waits until the page's heading is shown. Returns the response. */
  async goto(path = '/', options = {}) {
    const response = await this.page.goto(path, options);
    await this.ready();
    return response;
  }

  /** The shell is rendered and the current route's page (its h1) is shown. */
  async ready() {
    // A just-created frame is still at `about:blank` (or has no URL yet) for a moment.
    const { pathname } = await eventually(() => {
      const url = URL.parse(this.frame.url());
      return url?.protocol.startsWith('http') ? url : false;
    });
    await this.frame.locator(headingFor(pathname)).waitFor();
  }

  get shell() {
    return this.frame.locator('.shell');
  }
  get heading() {
    return this.frame.locator('#main h1').first();
  }
  get navigation() {
    return this.frame.getByTestId('app-nav');
  }
  /** The navigation's link to an area: `home`, `portfolios`, `dividends`, `favorites`, `settings`. */
  navLink(name) {
    return this.frame.getByTestId(`nav-${name}`);
  }
  /**
   * Follows the navigation to an area. On a phone, an area without a tab of its own is
   * in 전체 (All): that tab opens the list, and the area is chosen there.
   */
  async openNav(name) {
    const link = this.navLink(name);
    if (await link.isVisible()) return link.click();
    await this.frame.getByTestId('nav-all').click();
    await this.frame.getByTestId(`menu-${name}`).click();
  }
  /** Follows the navigation to an area and waits for its page. */
  async nav(name, path = name === 'home' ? '/' : `/${name}`) {
    await this.openNav(name);
    await this.waitForPath(path);
    await this.ready();
  }

  get languageButton() {
    return this.frame.getByTestId('open-language');
  }
  get languageDialog() {
    return this.frame.getByTestId('modal-language');
  }
  /** Clicks the header's language button and waits for the dialog. */
  async openLanguage() {
    await this.languageButton.click();
    await this.languageDialog.waitFor();
  }
  /** Picks a language in the open dialog, as a tap would. */
  async chooseLanguage(locale) {
    // The radio itself is visually hidden; people tap its label.
    await this.languageDialog.locator('label', { has: this.frame.getByTestId(`language-option-${locale}`) }).click();
  }
  get dialogCloseButton() {
    return this.languageDialog.locator('.modal__header button');
  }

  get toastArea() {
    return this.frame.getByTestId('toast-area');
  }
  get toasts() {
    return this.frame.getByTestId('toast');
  }
  get offlineBanner() {
    return this.frame.getByTestId('offline-banner');
  }

  /** The frame's current URL. */
  url() {
    return new URL(this.frame.url());
  }
  async waitForPath(pathname) {
    await eventually(() => assert.equal(this.url().pathname, pathname));
  }
  historyLength() {
    return this.frame.evaluate(() => window.history.length);
  }
  htmlLang() {
    return this.frame.evaluate(() => document.documentElement.lang);
  }
  storage(key) {
    return this.frame.evaluate((k) => window.localStorage.getItem(k), key);
  }
  scrollY() {
    return this.frame.evaluate(() => Math.round(window.scrollY));
  }
  /** Scrolls the window to `y` and waits for the `scroll` event to have been handled. */
  async scrollTo(y) {
    // The page's stylesheet may still be arriving: wait until the page is long enough.
    await eventually(async () => {
      const room = await this.frame.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      assert.ok(room >= y, `the page can scroll ${room} px, not ${y}`);
    });
    const reached = await this.frame.evaluate(
      (target) =>
        new Promise((resolve) => {
          window.addEventListener('scroll', () => resolve(Math.round(window.scrollY)), { once: true });
          window.scrollTo(0, target);
        }),
      y,
    );
    assert.equal(reached, y, `the page is too short to scroll to ${y}`);
  }
}

/** `/webview-host.html`: the app framed with a recording `window.ReactNativeWebView`. */
export class HostPage {
  constructor(page) {
    this.page = page;
    /** @type {AppPage | undefined} */
    this.app = undefined;
  }

  /**
   * Opens the host with the app at `path` in its frame; waits for the framed app.
   * `mode`: `app` (the Moat app with its own header and tab bar, the default), `old-app`
   * (an app that sets no `window.MoatApp`, `?chrome=web`) or `browser` (no bridge).
   */
  async goto(path = '/', { mode = 'app' } = {}) {
    const extra = { app: '', 'old-app': '&chrome=web', browser: '&bridge=off' }[mode];
    await this.page.goto(`/webview-host.html?path=${encodeURIComponent(path)}${extra}`);
    this.app = await this.topApp();
    return this.app;
  }

  /** The app in the top screen's frame, once its page is shown and it handed the host its bridge. */
  async topApp() {
    const handle = await this.page.getByTestId('host-frame').elementHandle({ timeout: TIMEOUT_MS });
    const frame = await eventually(async () => (await handle.contentFrame()) ?? false);
    const app = new AppPage(this.page, frame);
    await app.ready();
    // The app has handed the host its bridge (its in-web-view code has loaded).
    const button = this.page.getByTestId('bridge-HAPTIC_FEEDBACK');
    await eventually(async () => assert.equal(await button.isEnabled(), true, 'the framed app attached'));
    return app;
  }

  /** Clicks the host's button for a web → app action, once the top screen's app is attached. */
  async action(type) {
    const button = this.page.getByTestId(`bridge-${type}`);
    await eventually(async () => assert.equal(await button.isEnabled(), true, `${type} button enabled`));
    await button.click();
  }

  /** The stacked screens' paths, root first. */
  screens() {
    return this.page.evaluate(() => window.__MOAT_WEBVIEW_HOST__.screens());
  }

  /** Every web → app message the host received: `{type, payload, raw}`. */
  messages() {
    return this.page.evaluate(() =>
      window.__MOAT_WEBVIEW_HOST__.messages.map(({ type, payload, raw }) => ({ type, payload, raw })),
    );
  }
  /** Waits until at least `count` messages arrived; returns them all. */
  async waitForMessages(count) {
    await this.page.waitForFunction((n) => window.__MOAT_WEBVIEW_HOST__.messages.length >= n, count);
    return this.messages();
  }
  /** Posts an app → web message into the frame (as the mobile app would). */
  send(data) {
    return this.page.evaluate((d) => window.__MOAT_WEBVIEW_HOST__.send(d), data);
  }
  clear() {
    return this.page.evaluate(() => window.__MOAT_WEBVIEW_HOST__.clear());
  }
  get logCount() {
    return this.page.getByTestId('host-log-count');
  }
}
