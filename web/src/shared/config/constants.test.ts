import * as c from './constants';

describe('spec constants', () => {
  it('match the figures of spec §2, §4, §5, §7 and §9', () => {
    expect(c.SESSION_RESET_MS).toBe(4 * 60 * 60 * 1000);
    expect(c.PAYLOAD_FIRST_PUSH_MS).toBe(1000);
    expect(c.PAYLOAD_PUSH_INTERVAL_MS).toBe(2000);
    expect(c.AUTO_RELOAD_AFTER_MS).toBe(60 * 60 * 1000);
    expect(c.DELAYED_SCRIPT_MS).toBe(5000);
    expect(c.SCROLL_RESTORE_DELAY_MS).toBe(100);
    expect(c.EXPORT_TIMEOUT_MS).toBe(5000);
    expect(c.EXPORT_MAX_BATCH).toBe(100);
    expect(c.EXPORT_MAX_QUEUE).toBe(1000);
    expect(c.EXPORT_CONCURRENCY).toBe(100);
    expect(c.EXPORT_COMPRESSION).toBe('gzip');
    expect(c.METRIC_EXPORT_INTERVAL_MS).toBe(60000);
    expect(c.METRIC_EXPORT_TIMEOUT_MS).toBe(30000);
    expect(c.METRIC_ATTRIBUTE_CARDINALITY_LIMIT).toBe(2000);
    expect(c.TRANSPORT_RETRY).toEqual({ attempts: 5, initialMs: 1000, multiplier: 1.5, maxMs: 5000 });
    expect(c.TRANSPORT_RETRY_STATUSES).toEqual([429, 502, 503, 504]);
    expect(c.RECORDER_RETRY).toEqual({ attempts: 10, baseMs: 1000, stepMs: 500 });
    expect(c.SESSION_DATA_EXPIRY_MS).toBe(900000);
    expect(c.RECORDED_BODY_MAX_CHARS).toBe(65536);
    expect(c.RECORDED_TEXT_BODY_MAX_CHARS).toBe(67108864);
    expect(c.CLICKED_TEXT_MAX_CHARS).toBe(2000);
    expect(c.CLICK_DEBOUNCE_MS).toBe(16);
    expect(c.CANVAS).toEqual({ fps: 2, resizeFactor: 0.5, maxDimension: 360 });
    expect(c.SAMPLING_MS).toEqual({ scroll: 100, mouse: 50, media: 500, viewport: 200 });
    expect(c.MOUSE_BATCH_FLUSH_MS).toBe(500);
    expect(c.WEB_VITALS).toEqual({
      FCP: [1800, 3000],
      CLS: [0.1, 0.25],
      FID: [100, 300],
      INP: [200, 500],
      LCP: [2500, 4000],
      TTFB: [800, 1800],
    });
    expect(c.MOBILE_LAYOUT_MAX_PX).toBe(767);
    expect(c.KAKAO_EXTERNAL_OPEN_PREFIX).toBe('kakaotalk://web/openExternal?url=');
    expect(c.MODAL_ROUTE_VALUE).toBe('routeModalTrue');
    expect(c.FOCUS_MESSAGE_TRUE).toBe('IS_FOCUSED_FROM_APP=TRUE');
    expect(c.FOCUS_MESSAGE_FALSE).toBe('IS_FOCUSED_FROM_APP=FALSE');
    expect(c.RECORDER_BACKGROUND_RECORDING).toBe(false);
  });

  it('recorder retry delay is 1000 + 500 × 2^attempt', () => {
    expect(c.recorderRetryDelayMs(0)).toBe(1500);
    expect(c.recorderRetryDelayMs(1)).toBe(2000);
    expect(c.recorderRetryDelayMs(3)).toBe(5000);
    expect(c.recorderRetryDelayMs(9)).toBe(1000 + 500 * 512);
  });
});
