import { describe, expect, it } from 'vitest';
import type { Area, NavEntry, NavLabelKey } from '@/shared/area/types';
import { HomeIcon } from '@/shared/ui/icons';
import { currentId, groupTabs, navItems, phoneTabIds } from './nav';

/** An area with only a navigation entry (the label key's last part is its id). */
const area = (id: string, order: number, extra: Partial<NavEntry> = {}): Area => ({
  id,
  nav: { to: id === 'home' ? '/' : `/${id}`, labelKey: `nav.${id}` as NavLabelKey, icon: HomeIcon, order, ...extra },
});

// The product's order of preference: 홈, 포트폴리오, 커뮤니티, 채팅, 뉴스, 배당, 관심 종목.
const home = area('home', 10, { end: true });
const portfolios = area('portfolios', 20, { group: 'portfolio' });
const community = area('community', 30);
const chat = area('chat', 40);
const news = area('news', 50);
const dividends = area('dividends', 60, { group: 'portfolio' });
const favorites = area('favorites', 70);
const settings = area('settings', 900, { phoneTab: false });
const operator: Area = { id: 'operator', routes: [] };

const tabs = (areas: Area[]) => [...phoneTabIds(navItems(areas))];

describe('navigation', () => {
  it('lists every area that has an entry, in order, whatever order they were registered in', () => {
    expect(navItems([settings, favorites, operator, home, dividends, portfolios]).map((i) => i.id)).toEqual([
      'home',
      'portfolios',
      'dividends',
      'favorites',
      'settings',
    ]);
  });

  it('gives a phone the first four areas as tabs: today 홈 · 포트폴리오 · 배당 · 관심 종목', () => {
    expect(tabs([home, portfolios, dividends, favorites, settings])).toEqual(['home', 'portfolios', 'dividends', 'favorites']);
  });

  it('makes room for news, then for community and chat, with no placeholders', () => {
    expect(tabs([home, portfolios, dividends, favorites, settings, news])).toEqual(['home', 'portfolios', 'news', 'dividends']);
    expect(tabs([home, portfolios, dividends, favorites, settings, news, community, chat])).toEqual([
      'home',
      'portfolios',
      'community',
      'chat',
    ]);
    expect(tabs([home, settings])).toEqual(['home']);
  });

  it('marks the page’s own entry; on a phone without a tab for it, its group’s tab', () => {
    const items = navItems([home, portfolios, dividends, favorites, settings, news, community, chat]);
    const phone = phoneTabIds(items);
    expect(currentId(items, '/')).toBe('home');
    expect(currentId(items, '/portfolios/7')).toBe('portfolios');
    expect(currentId(items, '/dividends')).toBe('dividends');
    expect(currentId(items, '/dividends', phone)).toBe('portfolios');
    expect(currentId(items, '/settings', phone)).toBeUndefined();
    expect(currentId(items, '/stocks/KRX:005930')).toBeUndefined();
  });

  it('shows a group’s areas as tabs on each of their own pages only', () => {
    const items = navItems([home, portfolios, dividends, favorites]);
    expect(groupTabs(items, '/portfolios').map((i) => i.id)).toEqual(['portfolios', 'dividends']);
    expect(groupTabs(items, '/dividends').map((i) => i.id)).toEqual(['portfolios', 'dividends']);
    expect(groupTabs(items, '/portfolios/7')).toEqual([]);
    expect(groupTabs(items, '/favorites')).toEqual([]);
    expect(groupTabs(navItems([home, portfolios]), '/portfolios')).toEqual([]);
  });
});
