/**
 * The navigation, built from each area's registered entry (`nav`, with its `order`):
 * the side navigation lists every area; a phone's tab bar shows the first
 * {@link PHONE_TABS} that may be tabs, then 전체 (All), which lists every area.
 */
import type { Area, NavEntry } from '@/shared/area/types';

/** Tabs of a phone's bar before 전체 (PRODUCT: five tabs, the fifth always 전체). */
export const PHONE_TABS = 4;

/** An entry with the id its link is known by (`nav-<id>`): the last part of its label key. */
export type NavItem = NavEntry & { id: string };

/** Every area's entry, in order. */
export function navItems(areas: readonly Area[]): NavItem[] {
  return areas
    .flatMap((area) => (area.nav ? [{ ...area.nav, id: area.nav.labelKey.slice('nav.'.length) }] : []))
    .sort((a, b) => a.order - b.order);
}

/** The ids of the entries a phone's bar shows as tabs (before 전체). */
export function phoneTabIds(items: readonly NavItem[]): Set<string> {
  return new Set(items.filter((item) => item.phoneTab !== false).slice(0, PHONE_TABS).map((item) => item.id));
}

/** Whether `pathname` is `item`'s page (or, unless `end`, below it). */
export function isAt(item: Pick<NavEntry, 'to' | 'end'>, pathname: string): boolean {
  if (pathname === item.to) return true;
  return !item.end && item.to !== '/' && pathname.startsWith(`${item.to.replace(/\/$/, '')}/`);
}

/**
 * The entry to mark current: the one whose page this is; on a phone, when that one has
 * no tab, the tab of its group (포트폴리오 for 배당 once 배당 has no tab of its own).
 */
export function currentId(items: readonly NavItem[], pathname: string, tabs?: ReadonlySet<string>): string | undefined {
  const here = items.find((item) => isAt(item, pathname));
  if (!here || !tabs || tabs.has(here.id)) return here?.id;
  return items.find((item) => tabs.has(item.id) && item.group !== undefined && item.group === here.group)?.id;
}

/** The entries shown as tabs inside each other's pages on `pathname` (its group, when it has several); else none. */
export function groupTabs(items: readonly NavItem[], pathname: string): NavItem[] {
  const here = items.find((item) => item.group !== undefined && pathname === item.to);
  if (!here) return [];
  const group = items.filter((item) => item.group === here.group);
  return group.length > 1 ? group : [];
}
