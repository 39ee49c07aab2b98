/** Query keys of the accounts API (the member's own account is `entities/member`'s). */
export const authKeys = {
  providers: () => ['auth', 'oidc-providers'] as const,
  passwordReset: () => ['auth', 'password-reset'] as const,
  legal: () => ['auth', 'legal'] as const,
  profile: (nickname: string) => ['users', nickname] as const,
};
