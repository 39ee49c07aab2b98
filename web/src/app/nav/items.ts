import { APP_AREAS } from '../app-areas';
import { navItems, phoneTabIds } from './nav';

/** The navigation's entries, in order. */
export const NAV_ITEMS = navItems(APP_AREAS);
/** Those that are a phone's tabs (before 전체). */
export const PHONE_TAB_IDS = phoneTabIds(NAV_ITEMS);
