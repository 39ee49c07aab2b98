/** Query keys of the settings' own data. */
export const settingsKeys = {
  legal: () => ['legal', 'list'] as const,
};
