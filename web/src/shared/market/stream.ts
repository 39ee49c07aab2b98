/**
 * The tab's one WebSocket to `/api/stream` (docs/market.md "The stream"): JSON frames
 * multiplexed by topic (`quote:KRX:005930`; later `chat:…`).
 *
 * - Opened lazily by the first subscription; closed once nothing has been subscribed for
 *   {@link STREAM_IDLE_CLOSE_MS} (so moving between pages does not reconnect).
 * - Subscriptions are reference-counted per topic: the server hears `subscribe` for the
 *   first listener of a topic and `unsubscribe` when the last one leaves.
 * - A dropped socket reconnects with exponential back-off and subscribes to every topic
 *   again; coming back online reconnects at once.
 * - At most {@link STREAM_MAX_TOPICS} topics are subscribed at a time (the server's cap);
 *   further ones wait for a free slot.
 *
 * No React and no query cache here: `live-quote.ts` writes pushed quotes into the cache.
 */
import type { StreamMessage, StreamRequest } from './api-types';

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

export type StreamStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface TopicStreamOptions {
  /** The socket's URL, asked at every (re)connect. */
  url: () => string;
  createSocket?: (url: string) => SocketLike;
  /** `Math.random` unless a test fixes it. */
  random?: () => number;
}

/** `ws://host/api/stream` (or `wss:` on https) for the page's own host. */
export function defaultStreamUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${STREAM_PATH}`;
}

interface Subscription {
  listener: TopicListener;
}

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

  constructor(options: TopicStreamOptions) {
    this.options = {
      createSocket: (url) => new WebSocket(url),
      random: Math.random,
      ...options,
    };
  }

  /** Listens to `topic` until the returned function is called. */
  subscribe(topic: string, listener: TopicListener): () => void {
    const subscription: Subscription = { listener };
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

  /** Closes the socket and forgets every subscription (tests, log-out of a whole tab). */
  dispose(): void {
    this.topics.clear();
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

  /** Subscribes the current, open socket to wanted topics it does not have yet, within the cap. */
  private flush(): void {
    if (!this.isOpen()) return;
    const topics: string[] = [];
    for (const topic of this.topics.keys()) {
      if (this.active.size >= STREAM_MAX_TOPICS) break;
      if (this.active.has(topic)) continue;
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
      this.flush();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ op: 'ping' }), STREAM_PING_MS);
    };
    socket.onmessage = (event) => {
      if (socket === this.socket) this.receive(event.data);
    };
    socket.onclose = () => {
      if (socket !== this.socket) return;
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
    if (message.op === 'quote' && typeof message.topic === 'string') {
      const subs = this.topics.get(message.topic);
      if (!subs) return;
      // One call per distinct listener (several components may share one).
      new Set([...subs].map((s) => s.listener)).forEach((listener) => listener(message.data));
    } else if (message.op === 'error') {
      console.warn(`stream: ${message.code}: ${message.message}`);
    }
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.active.clear();
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
export function marketStream(): TopicStream {
  shared ??= new TopicStream({ url: defaultStreamUrl });
  return shared;
}

/** Closes and forgets the tab's stream; the next {@link marketStream} call starts afresh (tests). */
export function resetMarketStream(): void {
  shared?.dispose();
  shared = undefined;
}
