/** Query keys of the settings' own data. */
export const settingsKeys = {
  meta: () => ['meta', 'detail'] as const,
  legal: () => ['legal', 'list'] as const,
};
