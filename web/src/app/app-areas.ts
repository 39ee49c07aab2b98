import type { Area } from '@/shared/area/types';
import { AREAS } from './areas';
import { screens } from './screens';

/** The areas and the app's own screens: what the router, the navigation and the modals are built from. */
export const APP_AREAS: readonly Area[] = [screens, ...AREAS];
