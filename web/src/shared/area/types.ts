/**
 * What every area (a feature folder) gives the app, from its `index.ts`: its routes, its
 * entry in the navigation, its route modals, and the slots it fills on screens that show
 * several areas. The app lists the areas (`src/app/areas.ts`, one line each) and builds
 * the router, the navigation and the composed screens from them; no area imports
 * another (README, "How to add an area").
 */
import type { ComponentType } from 'react';
import type { ko } from '@/shared/i18n/locales/ko';
import type { IconProps } from '@/shared/ui/icons';

/** A label of the navigation: a key of `nav` in the shell's messages (always loaded). */
export type NavLabelKey = `nav.${Exclude<keyof (typeof ko)['nav'], 'label' | 'all' | 'allTitle' | 'sections'>}`;

/** An area's entry in the navigation. */
export interface NavEntry {
  /** Where it goes. */
  to: string;
  labelKey: NavLabelKey;
  icon: ComponentType<IconProps>;
  /**
   * Its place: the side navigation and the 전체 (All) list are in this order, and the
   * phone's tab bar shows the first four that may be tabs (PRODUCT decision: 홈,
   * 포트폴리오, 커뮤니티, 채팅, 뉴스, 배당, 관심 종목 — 10, 20, 30, 40, 50, 60, 70).
   */
  order: number;
  /** Active only on an exact match of `to` (home). */
  end?: boolean;
  /** `false`: never one of the phone's tabs; reached from 전체 (settings). */
  phoneTab?: boolean;
  /**
   * Areas with the same group are tabs inside each other's pages, led by the first in
   * `order` (포트폴리오 holds 배당): on a phone whose bar has no tab of its own for an
   * area, the group's tab is the active one.
   */
  group?: string;
}

/** A page of an area at `path` (react-router syntax). */
export interface AreaRoute {
  path: string;
  Page: ComponentType;
}

/** What every route modal receives. */
export interface RouteModalProps {
  /** Closes the modal (one step back in history, spec §2). */
  onClose: () => void;
}

/** One piece an area puts on a screen that shows several areas. */
export interface Slot<P = object> {
  /** Unique on its screen (React key, tests). */
  id: string;
  /** Its place on the screen: lower first. */
  order: number;
  Component: ComponentType<P>;
  /** Home: `half` sits beside the next half-width section on wide screens. */
  span?: 'full' | 'half';
  /** Starts loading a lazy slot's code, so a screen can fetch all its slots at once. */
  preload?: () => Promise<unknown>;
}

/** What a stock page's slots are told: which instrument (its details are in the query cache). */
export interface StockSlotProps {
  instrumentId: string;
}

/** The screens that show several areas, and what each area puts on them. */
export interface AreaSlots {
  /** Home's sections (the member's money first, then the market, favourites, …). */
  home?: readonly Slot[];
  /** Sections of a stock's page, under its price. */
  stockSections?: readonly Slot<StockSlotProps>[];
  /** Buttons beside a stock's name (the favourite star, …). */
  stockActions?: readonly Slot<StockSlotProps>[];
  /** Items at the header's end (search, the member, badges, the language). Loaded with the first page: keep them small. */
  header?: readonly Slot[];
}

export interface Area {
  /** Unique; `nav-<id>` is its navigation link's test id. */
  id: string;
  nav?: NavEntry;
  routes?: readonly AreaRoute[];
  /** Route modals by name: `?<name>=routeModalTrue` opens one. */
  modals?: Readonly<Record<string, ComponentType<RouteModalProps>>>;
  slots?: AreaSlots;
}
