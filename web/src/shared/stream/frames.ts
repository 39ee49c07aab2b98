/** The frames of `/api/stream` (docs/stream.md; not in the OpenAPI document). */

/** Client → server frames. */
export type StreamRequest =
  | { op: 'subscribe'; topics: string[] }
  | { op: 'unsubscribe'; topics: string[] }
  | { op: 'auth'; token: string }
  | { op: 'ping' };

/** Server → client frames this client reads; others are ignored. */
export type StreamMessage =
  | { op: 'quote'; topic: string; seq: number; data: unknown }
  | { op: 'event'; topic: string; seq: number; data: unknown }
  /** A new article on a `news:` topic (docs/news.md, "Live topics"). */
  | { op: 'new'; topic: string; seq: number; data: unknown }
  | { op: 'gap'; topic: string; last_seq: number }
  | { op: 'subscribed'; topics: string[] }
  | { op: 'unsubscribed'; topics: string[] }
  | { op: 'authed'; member: number }
  | {
      op: 'error';
      code:
        | 'unknown_topic'
        | 'too_many_subscriptions'
        | 'bad_message'
        | 'forbidden'
        | 'unauthorized'
        | 'unavailable'
        | 'abuse'
        | (string & {});
      message: string;
    }
  | { op: 'pong' };
