/**
 * Query keys of the member's own data. Every key of it starts with
 * `[MEMBER_QUERY_ROOT, userId]`: keyed by member, so one member's cached data is never
 * shown to another, and a change to the account can refresh all of it at once.
 */
export const MEMBER_QUERY_ROOT = 'me';

export const memberKeys = {
  /** Everything of the member's (prefix), and `GET /api/me` itself (exact). */
  all: (userId: number | null) => [MEMBER_QUERY_ROOT, userId] as const,
  me: (userId: number | null) => [MEMBER_QUERY_ROOT, userId] as const,
};
