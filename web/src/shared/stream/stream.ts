/**
 * The tab's one WebSocket to `/api/stream` (docs/stream.md): JSON frames multiplexed by
 * topic (`quote:KRX:005930` public, `member:7:account` private).
 *
 * - Opened lazily by the first subscription; closed once nothing has been subscribed for
 *   {@link STREAM_IDLE_CLOSE_MS} (so moving between pages does not reconnect).
 * - Subscriptions are reference-counted per topic: the server hears `subscribe` for the
 *   first listener of a topic and `unsubscribe` when the last one leaves.
 * - A dropped socket reconnects with exponential back-off and subscribes to every topic
 *   again; coming back online reconnects at once.
 * - At most {@link STREAM_MAX_TOPICS} topics are subscribed at a time (the server's cap);
 *   further ones wait for a free slot.
 * - Logged in, the socket sends `auth` with the current token first; private
 *   (`member:…`) topics are subscribed only once the server answered `authed`. A renewed
 *   token of the same member is sent again on the open socket; logging in as a visitor
 *   authenticates the open socket; logging out or switching members opens a new socket.
 * - Closed by the server with {@link CLOSE_SESSION_ENDED} or {@link CLOSE_BANNED} (or
 *   answered `unauthorized`), the token is dead: the stream reconnects with the usual
 *   back-off as a visitor and never sends that token again.
 * - `gap` (frames were lost) calls the topic's `onGap` so the subscriber re-fetches;
 *   unknown ops are ignored.
 *
 * No React and no query cache here: `live-quote.ts` writes pushed quotes into the cache.
 */
import { currentToken, decodeToken, subscribeAuth } from '@/shared/session/session';
import type { StreamMessage, StreamRequest } from './frames';

/** Path of the stream endpoint. */
export const STREAM_PATH = '/api/stream';
/** First reconnect delay after the socket drops. */
export const RECONNECT_INITIAL_MS = 1000;
/** Each failed attempt multiplies the delay by this… */
export const RECONNECT_MULTIPLIER = 2;
/** …up to this. */
export const RECONNECT_MAX_MS = 30_000;
/** Up to this share of a delay is taken off at random, so tabs do not reconnect in step. */
export const RECONNECT_JITTER = 0.2;
/** Topics one socket may hold (docs/market.md: 64 per socket). */
export const STREAM_MAX_TOPICS = 64;
/** A `ping` this often keeps idle proxies from closing the socket. */
export const STREAM_PING_MS = 25_000;
/** The socket closes after this long without any subscription. */
export const STREAM_IDLE_CLOSE_MS = 30_000;
/** Close code: the socket's session ended (log-out, password change, deletion). */
export const CLOSE_SESSION_ENDED = 4401;
/** Close code: the member was banned. */
export const CLOSE_BANNED = 4403;
/** Topics under this prefix are a member's own: subscribed only on an authenticated socket. */
export const PRIVATE_TOPIC_PREFIX = 'member:';

/** Delay before reconnect attempt `attempt` (0-based), before jitter. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_INITIAL_MS * RECONNECT_MULTIPLIER ** attempt);
}

/** The part of the browser's `WebSocket` the stream uses (a fake in tests). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** `WebSocket.OPEN`. */
const OPEN = 1;

export type TopicListener = (data: unknown) => void;
/** Called when frames of a topic were lost: re-fetch its state. */
export type GapListener = () => void;

export type StreamStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface TopicStreamOptions {
  /** The socket's URL, asked at every (re)connect. */
  url: () => string;
  createSocket?: (url: string) => SocketLike;
  /** `Math.random` unless a test fixes it. */
  random?: () => number;
  /** The member's current token (`undefined`: a visitor); the stored one by default. */
  token?: () => string | undefined;
  /** Calls the listener when the token may have changed; returns the unsubscribe. */
  onTokenChange?: (listener: () => void) => () => void;
  /** The member a token belongs to. */
  memberOf?: (token: string) => number | undefined;
}

/** `ws://host/api/stream` (or `wss:` on https) for the page's own host. */
export function defaultStreamUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${STREAM_PATH}`;
}

interface Subscription {
  listener: TopicListener;
  onGap?: GapListener;
}

const isPrivate = (topic: string) => topic.startsWith(PRIVATE_TOPIC_PREFIX);

/** A reference-counted, reconnecting, topic-multiplexed WebSocket. */
export class TopicStream {
  private readonly options: Required<TopicStreamOptions>;
  private socket: SocketLike | undefined;
  /** Listeners by topic; a topic is wanted while it has any. */
  private readonly topics = new Map<string, Set<Subscription>>();
  /** Topics the current socket has been told to subscribe to. */
  private readonly active = new Set<string>();
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private readonly statusListeners = new Set<() => void>();
  private currentStatus: StreamStatus = 'idle';
  /** The token the current socket sent in `auth`. */
  private authToken: string | undefined;
  /** Whether the server answered `authed` on the current socket. */
  private authed = false;
  /** A token the server refused or whose session it ended: never sent again. */
  private deadToken: string | undefined;
  private readonly offToken: () => void;

  constructor(options: TopicStreamOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      random: Math.random,
      token: currentToken,
      onTokenChange: subscribeAuth,
      memberOf: (token) => decodeToken(token)?.data.user_id,
      ...options,
    };
    this.offToken = this.options.onTokenChange(this.onTokenChange);
  }

  /**
   * Listens to `topic` until the returned function is called; `onGap` is called when
   * frames of the topic were lost (re-fetch).
   */
  subscribe(topic: string, listener: TopicListener, onGap?: GapListener): () => void {
    const subscription: Subscription = { listener, onGap };
    let subs = this.topics.get(topic);
    if (!subs) {
      subs = new Set();
      this.topics.set(topic, subs);
    }
    subs.add(subscription);
    clearTimeout(this.idleTimer);
    if (subs.size === 1) {
      if (this.socket) this.flush();
      else if (this.reconnectTimer === undefined) this.connect();
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.unsubscribe(topic, subscription);
    };
  }

  /** How many listeners `topic` has. */
  listenerCount(topic: string): number {
    return this.topics.get(topic)?.size ?? 0;
  }

  get status(): StreamStatus {
    return this.currentStatus;
  }

  /** Calls `listener` whenever {@link status} changes. */
  onStatus(listener: () => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Whether the server accepted the current socket's token. */
  get authenticated(): boolean {
    return this.authed;
  }

  /** Closes the socket and forgets every subscription (tests, log-out of a whole tab). */
  dispose(): void {
    this.topics.clear();
    this.offToken();
    this.close();
  }

  private setStatus(status: StreamStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.statusListeners.forEach((l) => l());
  }

  private unsubscribe(topic: string, subscription: Subscription): void {
    const subs = this.topics.get(topic);
    if (!subs?.delete(subscription) || subs.size > 0) return;
    this.topics.delete(topic);
    if (this.active.delete(topic) && this.isOpen()) this.send({ op: 'unsubscribe', topics: [topic] });
    // A slot is free for a waiting topic.
    this.flush();
    if (this.topics.size === 0) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.close(), STREAM_IDLE_CLOSE_MS);
    }
  }

  private isOpen(): boolean {
    return this.socket?.readyState === OPEN;
  }

  private send(request: StreamRequest): void {
    try {
      this.socket?.send(JSON.stringify(request));
    } catch {
      // The socket is closing; its close handler reconnects and resubscribes.
    }
  }

  /**
   * Subscribes the current, open socket to wanted topics it does not have yet, within the
   * cap; private topics only once authenticated.
   */
  private flush(): void {
    if (!this.isOpen()) return;
    const topics: string[] = [];
    for (const topic of this.topics.keys()) {
      if (this.active.size >= STREAM_MAX_TOPICS) break;
      if (this.active.has(topic) || (isPrivate(topic) && !this.authed)) continue;
      this.active.add(topic);
      topics.push(topic);
    }
    if (topics.length > 0) this.send({ op: 'subscribe', topics });
  }

  private connect(): void {
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    if (this.topics.size === 0) {
      this.setStatus('idle');
      return;
    }
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.active.clear();
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.setStatus('open');
      this.authenticate();
      this.flush();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ op: 'ping' }), STREAM_PING_MS);
    };
    socket.onmessage = (event) => {
      if (socket === this.socket) this.receive(event.data);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      // The session is over: reconnecting with its token would only be closed again.
      if (event.code === CLOSE_SESSION_ENDED || event.code === CLOSE_BANNED) this.deadToken = this.authToken;
      this.dropSocket();
      this.scheduleReconnect();
    };
    // An error is followed by `close`, which handles it.
    socket.onerror = () => {};
    window.addEventListener('online', this.onOnline);
  }

  private receive(raw: unknown): void {
    if (typeof raw !== 'string') return;
    let message: StreamMessage;
    try {
      message = JSON.parse(raw) as StreamMessage;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    switch (message.op) {
      case 'quote':
      case 'event':
      case 'new': {
        if (typeof message.topic !== 'string') return;
        const subs = this.topics.get(message.topic);
        if (!subs) return;
        // One call per distinct listener (several components may share one).
        new Set([...subs].map((s) => s.listener)).forEach((listener) => listener(message.data));
        return;
      }
      case 'gap': {
        const subs = typeof message.topic === 'string' ? this.topics.get(message.topic) : undefined;
        if (!subs) return;
        new Set([...subs].flatMap((s) => (s.onGap ? [s.onGap] : []))).forEach((onGap) => onGap());
        return;
      }
      case 'authed':
        this.authed = true;
        this.flush();
        return;
      case 'error':
        if (message.code === 'unauthorized' && this.authToken) {
          this.deadToken = this.authToken;
          this.authToken = undefined;
        }
        console.warn(`stream: ${message.code}: ${message.message}`);
        return;
      default:
      // Unknown ops (newer servers) are ignored.
    }
  }

  /** The token to send, unless the server refused it or ended its session. */
  private usableToken(): string | undefined {
    const token = this.options.token();
    return token && token !== this.deadToken ? token : undefined;
  }

  /** Sends `auth` with the current token on the open socket, if logged in. */
  private authenticate(): void {
    const token = this.usableToken();
    if (!token || token === this.authToken) return;
    this.authToken = token;
    this.send({ op: 'auth', token });
  }

  private readonly onTokenChange = () => {
    const token = this.usableToken();
    if (token === this.authToken || !this.isOpen()) return;
    const was = this.authToken === undefined ? undefined : this.options.memberOf(this.authToken);
    const now = token === undefined ? undefined : this.options.memberOf(token);
    // A visitor logging in, or the same member's renewed token: (re-)authenticate.
    if (token !== undefined && (was === undefined ? this.authToken === undefined : was === now)) {
      this.authenticate();
      return;
    }
    // Logged out, or another member: start afresh with a new socket.
    const socket = this.socket;
    this.dropSocket();
    try {
      socket?.close(1000);
    } catch {
      // already closed
    }
    this.attempt = 0;
    this.connect();
  };

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.active.clear();
    this.authToken = undefined;
    this.authed = false;
    clearInterval(this.pingTimer);
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    }
  }

  private scheduleReconnect(): void {
    if (this.topics.size === 0) {
      this.setStatus('idle');
      return;
    }
    const delay = reconnectDelayMs(this.attempt) * (1 - RECONNECT_JITTER * this.options.random());
    this.attempt += 1;
    this.setStatus('reconnecting');
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private readonly onOnline = () => {
    // Back online: try now rather than at the end of a long back-off.
    if (this.socket || this.topics.size === 0) return;
    this.attempt = 0;
    this.connect();
  };

  private close(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    window.removeEventListener('online', this.onOnline);
    const socket = this.socket;
    this.dropSocket();
    this.attempt = 0;
    try {
      socket?.close(1000);
    } catch {
      // already closed
    }
    this.setStatus('idle');
  }
}

let shared: TopicStream | undefined;

/** The tab's stream (created on first use; no socket until something subscribes). */
export function liveStream(): TopicStream {
  shared ??= new TopicStream({ url: defaultStreamUrl });
  return shared;
}

/** Closes and forgets the tab's stream; the next {@link liveStream} call starts afresh (tests). */
export function resetLiveStream(): void {
  shared?.dispose();
  shared = undefined;
}
