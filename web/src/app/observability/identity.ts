/**
 * Who a recording belongs to (spec §1): the logged-in member, by user id and nickname.
 *
 * How identity changes map onto the pinned client (`highlight.run` 9.20.0), decided from
 * what its public API can do:
 * - `H.identify` labels the *current* session (`identifySession`). Calling it for another
 *   member would relabel the earlier member's recording as theirs.
 * - The client cannot forget an identity: `identify('')` is rejected, and even a new
 *   session (`H.start({forceNew: true})`) is identified again with the last member the
 *   client holds in memory, until the page is reloaded.
 *
 * Hence:
 * - visitor → member (log-in): identify the current session; the visit that led to the
 *   log-in is that member's.
 * - member → visitor (log-out): keep the session as it is. A new session would carry the
 *   logged-out member's identity all the same, so it would only cut one visit in two.
 * - member → another member (shared device): continue on a new session, identified as
 *   the new member (after the client's automatic re-identification as the previous one,
 *   which the new identification overrides).
 * - same member, new nickname: identify again (same session, updated details).
 *
 * Every identification is also a binding (`./bind`): `H.identify` reaches the server
 * without the member's token, so anyone knowing a session's id could send one naming any
 * member, and the server keeps it only as a claim. Right after identifying, the recorder
 * binds the session it records to the member with the member's own token; that is what
 * the operator sees as the session's member. A session belongs to the first member
 * bound to it: the new session of a change of member is bound to the new member, even
 * though the client re-identifies it as the previous one first (a claim, never bound).
 */

/** A member as the recorder knows them. */
export interface MemberIdentity {
  /** The user id, as a string; never empty. */
  id: string;
  nickname: string;
}

export interface IdentityChange {
  /** The session so far belongs to another member: continue on a new session. */
  newSession: boolean;
  /** Identify the (current or new) session as this member. */
  identify: MemberIdentity | null;
}

/**
 * What to do when the logged-in member becomes `next` (`null`: a visitor), given the
 * member the current session was last identified as (`null`: none yet).
 */
export function identityChange(session: MemberIdentity | null, next: MemberIdentity | null): IdentityChange {
  if (!next) return { newSession: false, identify: null };
  if (!session) return { newSession: false, identify: next };
  if (session.id !== next.id) return { newSession: true, identify: next };
  return { newSession: false, identify: session.nickname === next.nickname ? null : next };
}
