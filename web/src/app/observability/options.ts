/**
 * How the `highlight.run` client (pinned at 9.20.0) is configured: everything goes to
 * Moat's own ingest on the page's origin, nothing to a vendor host
 * (design/recorder-protocol.md). Pure functions of the page's location; type-only import
 * of the client, so tests need not load it.
 */
import type { HighlightOptions, RequestResponsePair } from 'highlight.run';
import { CANVAS } from '@/shared/config/constants';

/** The project id sent as `organization_verbose_id`; Moat's ingest has one project. */
export const RECORDER_PROJECT_ID = 'moat';

/** Service name on the recorder's sessions and OpenTelemetry resources. */
export const RECORDER_SERVICE_NAME = 'moat-web';

/** GraphQL endpoint of the ingest, on the page's origin (no CORS). */
export const RECORDER_BACKEND_PATH = '/public';

/**
 * Recorded request and response headers whose value is replaced by `[REDACTED]`. The
 * client always adds `authorization`, `cookie`, `proxy-authorization` and `token`; they
 * are listed anyway so the list stands on its own. `x-moat-token` carries renewed tokens.
 */
export const REDACTED_HEADERS = [
  'authorization',
  'cookie',
  'proxy-authorization',
  'set-cookie',
  'token',
  'x-moat-token',
] as const;

/** Top-level JSON body keys whose value is replaced by `[REDACTED]` (the accounts API's secrets). */
export const REDACTED_BODY_KEYS = ['password', 'current_password', 'new_password', 'token', 'ticket', 'link_ticket'] as const;

/**
 * URL substrings whose requests are never recorded beyond their timing: no headers, no
 * bodies, no trace headers, no OpenTelemetry span. The accounts endpoints carry
 * credentials, tokens and personal data, and the client's fetch spans keep request
 * bodies unredacted (`DELETE /api/me` sends the password), so they are left out entirely.
 * (`/api/me` also covers `/api/meta`, which is harmless.)
 */
export const UNRECORDED_URLS = ['/api/auth/', '/api/me'] as const;

/** `development` when the host name contains "dev", otherwise `production` (spec §1). */
export function recorderEnvironment(hostname: string): 'development' | 'production' {
  return hostname.includes('dev') ? 'development' : 'production';
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where trace headers (`traceparent`, `X-Highlight-Request`) may go: this origin only,
 * as an absolute URL or a root-relative path (not `//host`, which is another origin).
 * The client itself never adds them to feature-flag or event endpoints.
 */
export function sameOriginPatterns(origin: string): RegExp[] {
  return [new RegExp(`^${escapeRegExp(origin)}(?:[/?#]|$)`), /^\/(?!\/)/];
}

/** Whether `url` (absolute or relative to `base`) is on `origin`. */
export function isSameOrigin(url: string, origin: string, base: string = origin): boolean {
  try {
    return new URL(url, base).origin === origin;
  } catch {
    return false;
  }
}

/** A recorded request of another origin: its timing and status, never its headers or bodies. */
export function withoutContents(pair: RequestResponsePair): RequestResponsePair {
  return {
    ...pair,
    request: { ...pair.request, headers: {}, body: undefined },
    response: { ...pair.response, headers: {}, body: undefined },
  };
}

/** The location fields the options depend on. */
export type PageLocation = Pick<Location, 'origin' | 'hostname' | 'href'>;

/**
 * The client's options for this page. Recording starts only when the driver calls
 * `H.start()` (`manualStart`), and the driver — not the client — stops and restarts it
 * on visibility changes (`disableBackgroundRecording: false`, see `./recording-state`).
 */
export function highlightOptions(location: PageLocation): HighlightOptions {
  const { origin } = location;
  return {
    backendUrl: `${origin}${RECORDER_BACKEND_PATH}`,
    // The client appends /v1/traces and /v1/metrics.
    otlpEndpoint: origin,
    environment: recorderEnvironment(location.hostname),
    serviceName: RECORDER_SERVICE_NAME,
    manualStart: true,
    disableBackgroundRecording: false,
    // Masks every input's value and obfuscates text that looks personal.
    privacySetting: 'default',
    // `console.error` calls become error records too (type `console.error`), besides
    // window errors, unhandled rejections and the app's error boundaries. The client
    // records them inside its own console hook, so the browser's drop-list filter
    // (`./error-filter`) cannot see them: the ingest drops them by the same list
    // (drop-list.json), and the client leaves out its own short list.
    reportConsoleErrors: true,
    // Stylesheets travel with the replay, so sessions still look right after a deploy.
    inlineStylesheet: true,
    // Charts are canvases: snapshots at 2 fps, half size, at most 360 px (spec §9).
    enableCanvasRecording: true,
    samplingStrategy: {
      canvas: CANVAS.fps,
      canvasFactor: CANVAS.resizeFactor,
      canvasMaxSnapshotDimension: CANVAS.maxDimension,
    },
    tracingOrigins: sameOriginPatterns(origin),
    networkRecording: {
      enabled: true,
      recordHeadersAndBody: true,
      networkHeadersToRedact: [...REDACTED_HEADERS],
      networkBodyKeysToRedact: [...REDACTED_BODY_KEYS],
      urlBlocklist: [...UNRECORDED_URLS],
      // Third parties: timing and status only. (Returning null would drop the request
      // from the session altogether.)
      requestResponseSanitizer: (pair) =>
        isSameOrigin(pair.request.url, origin, location.href) ? pair : withoutContents(pair),
    },
  };
}
