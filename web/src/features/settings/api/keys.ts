/** Query keys of the settings' own data. */
export const settingsKeys = {
  meta: () => ['meta', 'detail'] as const,
};
