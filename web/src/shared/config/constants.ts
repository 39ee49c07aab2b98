/**
 * Every timing and limit fixed by the specification, in one place.
 * Durations are milliseconds unless the name says otherwise.
 */

/** A recording session resets after more than 4 h without an explicit session key. */
export const SESSION_RESET_MS = 14_400_000; // spec §4, §9

/** First recorder payload push after page load. */
export const PAYLOAD_FIRST_PUSH_MS = 1000; // spec §7, §9
/** Recorder payload push interval after the first push. */
export const PAYLOAD_PUSH_INTERVAL_MS = 2000; // spec §7, §9

/** The page reloads itself when visible/focused again more than this long after load. */
export const AUTO_RELOAD_AFTER_MS = 3_600_000; // spec §2, §9
/** `<script delay>` tags get their source after this delay (or first interaction). */
export const DELAYED_SCRIPT_MS = 5000; // spec §2, §9
/** Scroll position is restored this long after back/forward navigation. */
export const SCROLL_RESTORE_DELAY_MS = 100; // spec §2, §9

/** Telemetry export timeout; must be a number > 0. */
export const EXPORT_TIMEOUT_MS = 5000; // spec §5, §9
/** Telemetry export: spans per batch. */
export const EXPORT_MAX_BATCH = 100; // spec §9
/** Telemetry export: queued spans before dropping. */
export const EXPORT_MAX_QUEUE = 1000; // spec §9
/** Telemetry export: concurrent export requests. */
export const EXPORT_CONCURRENCY = 100; // spec §9
/** Telemetry export body compression. */
export const EXPORT_COMPRESSION = 'gzip'; // spec §9

/** Metric export interval (the pinned client, as patched at install: scripts/patch-highlight.mjs). */
export const METRIC_EXPORT_INTERVAL_MS = 60000; // spec §9
/** Metric export timeout (the pinned client, as patched at install). */
export const METRIC_EXPORT_TIMEOUT_MS = 30000; // spec §9
/** Distinct attribute sets kept per metric. */
export const METRIC_ATTRIBUTE_CARDINALITY_LIMIT = 2000; // spec §9

/** Telemetry transport retry: 5 attempts, start 1 s, ×1.5, cap 5 s. */
export const TRANSPORT_RETRY = { attempts: 5, initialMs: 1000, multiplier: 1.5, maxMs: 5000 } as const; // spec §9
/** HTTP statuses on which telemetry export retries (honouring Retry-After). */
export const TRANSPORT_RETRY_STATUSES: readonly number[] = [429, 502, 503, 504]; // spec §7

/** Recorder data-request retry: up to 10 attempts, delay 1000 + 500 × 2^attempt. */
export const RECORDER_RETRY = { attempts: 10, baseMs: 1000, stepMs: 500 } as const; // spec §7

/** Delay before recorder retry number `attempt`: 1000 ms + 500 ms × 2^attempt. */
export function recorderRetryDelayMs(attempt: number): number {
  return RECORDER_RETRY.baseMs + RECORDER_RETRY.stepMs * 2 ** attempt; // spec §7
}

/** Stored recorder session data expires after this long. */
export const SESSION_DATA_EXPIRY_MS = 900000; // spec §9
/** Recorded network bodies are truncated to this many characters. */
export const RECORDED_BODY_MAX_CHARS = 65536; // spec §9
/** Recorded JSON and plain-text bodies are truncated to this many characters. */
export const RECORDED_TEXT_BODY_MAX_CHARS = 67108864; // spec §9
/** The text of a clicked element is truncated to this many characters. */
export const CLICKED_TEXT_MAX_CHARS = 2000; // spec §5, §9

/** Canvas recording: 2 fps, resized by 0.5, at most 360 px on a side. */
export const CANVAS = { fps: 2, resizeFactor: 0.5, maxDimension: 360 } as const; // spec §9
/** Recorder sampling intervals. */
export const SAMPLING_MS = { scroll: 100, mouse: 50, media: 500, viewport: 200 } as const; // spec §9
/** Batched mouse movements are flushed this often. */
export const MOUSE_BATCH_FLUSH_MS = 500; // spec §9

/** Widest viewport (px) that gets the mobile layout (bottom tab bar); side nav from 768 px. */
export const MOBILE_LAYOUT_MAX_PX = 767; // PRODUCT.md Shell

/** KakaoTalk external-open link prefix; the encoded current URL follows. */
export const KAKAO_EXTERNAL_OPEN_PREFIX = 'kakaotalk://web/openExternal?url='; // spec §2
/** Query-parameter value that marks an open modal route: `?<name>=routeModalTrue`. */
export const MODAL_ROUTE_VALUE = 'routeModalTrue'; // spec §2
/** App → web message: the web view gained focus. */
export const FOCUS_MESSAGE_TRUE = 'IS_FOCUSED_FROM_APP=TRUE'; // spec §2
/** App → web message: the web view lost focus. */
export const FOCUS_MESSAGE_FALSE = 'IS_FOCUSED_FROM_APP=FALSE'; // spec §2

/**
 * Whether the session recorder keeps recording while the tab is hidden (spec §4). Off:
 * a hidden tab stops recording and a visible one re-initialises it, so a background tab
 * or a backgrounded app (live quotes still changing the page) uploads nothing.
 */
export const RECORDER_BACKGROUND_RECORDING = false; // spec §4
