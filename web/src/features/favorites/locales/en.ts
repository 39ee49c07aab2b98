import type { MessageShape } from '@/shared/i18n/types';
import type { favoritesKo } from './ko';

/** English messages of the favourites page, loaded only when English is chosen. */
export const favoritesEn = {
  meta: {
    title: 'Favourites — Moat',
    description: 'Live prices of your favourite stocks, in the order you choose.',
  },
  title: 'Favourites',
  count: '{{count}}',
  edit: 'Edit',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  saved: 'Favourites order saved.',
  saveFailed: 'Could not save. Your edit is kept; please try again.',
  restored: 'Continuing your unsaved edit.',
  discarded: 'Your favourites changed elsewhere, so the unsaved edit was dropped.',
  empty: 'No favourites yet. Tap the star on a stock’s page to add one.',
  findStocks: 'Find stocks',
  loadFailed: 'Could not load your favourites.',
  retry: 'Try again',
  editHint: 'Drag to reorder, or press Alt+↑/↓ on a row.',
  editList: 'Reorder favourites',
  handle: 'Drag to move {{name}}',
  moveUp: 'Move {{name}} up',
  moveDown: 'Move {{name}} down',
  remove: 'Remove {{name}}',
  moved: '{{name}}: position {{position}} of {{count}}',
  removedItem: 'Removed {{name}}. Save to apply.',
} as const satisfies MessageShape<typeof favoritesKo>;
