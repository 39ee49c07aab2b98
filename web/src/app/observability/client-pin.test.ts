/**
 * The recording client is pinned, and the spec's recorder figures are the pinned
 * client's own: this reads them out of its published bundle. A new client version must
 * be checked again (design/recorder-protocol.md) before this test is updated.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLICKED_TEXT_MAX_CHARS,
  EXPORT_COMPRESSION,
  EXPORT_CONCURRENCY,
  EXPORT_MAX_BATCH,
  EXPORT_MAX_QUEUE,
  EXPORT_TIMEOUT_MS,
  METRIC_ATTRIBUTE_CARDINALITY_LIMIT,
  METRIC_EXPORT_INTERVAL_MS,
  METRIC_EXPORT_TIMEOUT_MS,
  MOUSE_BATCH_FLUSH_MS,
  PAYLOAD_FIRST_PUSH_MS,
  PAYLOAD_PUSH_INTERVAL_MS,
  RECORDED_BODY_MAX_CHARS,
  RECORDED_TEXT_BODY_MAX_CHARS,
  RECORDER_RETRY,
  SAMPLING_MS,
  SESSION_DATA_EXPIRY_MS,
  SESSION_RESET_MS,
  TRANSPORT_RETRY,
  TRANSPORT_RETRY_STATUSES,
} from '@/shared/config/constants';
// The install step that patches the client (package.json `postinstall`).
import { HIGHLIGHT_PATCHES } from '../../../scripts/patch-highlight.mjs';

const PINNED = '9.20.0';
const root = process.cwd();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const dist = `${root}/node_modules/highlight.run/dist`;

/** The bundle file whose name starts with `prefix`. */
function bundle(prefix: string): string {
  const name = readdirSync(dist)
    .sort()
    .find((f) => f.startsWith(prefix) && f.endsWith('.js'));
  if (!name) throw new Error(`highlight.run ${PINNED}: no ${prefix}*.js in dist/`);
  return readFileSync(`${dist}/${name}`, 'utf8');
}

/** Evaluates a constant arithmetic expression of the bundle (`4 * 60 * 60 * 1e3`). */
function value(expression: string | undefined): number {
  if (!expression || !/^[\d\s.*e+]+$/.test(expression)) throw new Error(`not a constant: ${expression}`);
  return expression.split('*').reduce((product, factor) => product * Number(factor.trim()), 1);
}

describe(`highlight.run pinned at ${PINNED}`, () => {
  it('is a dependency at exactly that version, and that version is installed', () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['highlight.run']).toBe(PINNED);
    const installed = JSON.parse(readFileSync(`${root}/node_modules/highlight.run/package.json`, 'utf8')) as { version: string };
    expect(installed.version).toBe(PINNED);
  });

  it('pushes first after 1 s, then every 2 s; resets after 4 h; continues a reloaded tab for 15 min', () => {
    const m = /(\w+) = ([\d.e* ]+), \w+ = ([\d.e* ]+), \w+ = ([\d.e* ]+), \w+ = ([\d.e* ]+), \w+ = \{\s*normal:/.exec(bundle('common-'));
    expect(m, 'timing constants').not.toBeNull();
    const [firstPush, interval, reset, expiry] = [m![2], m![3], m![4], m![5]].map(value);
    expect(firstPush).toBe(PAYLOAD_FIRST_PUSH_MS);
    expect(interval).toBe(PAYLOAD_PUSH_INTERVAL_MS);
    expect(reset).toBe(SESSION_RESET_MS);
    expect(expiry).toBe(SESSION_DATA_EXPIRY_MS);
  });

  it('retries data requests 10 times, 1000 + 500 × 2^attempt ms apart, never on BillingQuotaExceeded', () => {
    const common = bundle('common-');
    const m = /(\w+) = (\d+), (\w+) = ([\d.e]+), (\w+) = (\d+), \w+ = \[\w+\.BillingQuotaExceeded/.exec(common);
    expect(m, 'retry constants').not.toBeNull();
    expect({ attempts: value(m![2]), baseMs: value(m![4]), stepMs: value(m![6]) }).toEqual(RECORDER_RETRY);
  });

  it('cuts recorded bodies at 65,536 characters, 67,108,864 for JSON and plain text', () => {
    const m = /= ([\d* ]+), \w+ = \{\s*"application\/json": ([\d* ]+),[^"]*"text\/plain": ([\d* ]+)/.exec(bundle('observe-'));
    expect(m, 'body limits').not.toBeNull();
    expect(value(m![1])).toBe(RECORDED_BODY_MAX_CHARS);
    expect(value(m![2])).toBe(RECORDED_TEXT_BODY_MAX_CHARS);
    expect(value(m![3])).toBe(RECORDED_TEXT_BODY_MAX_CHARS);
  });

  it('cuts a clicked element’s text at 2000 characters', () => {
    const m = /\.length > ([\d.e]+) && \(\w+ = \w+\.substring\(0, ([\d.e]+)\)\)/.exec(bundle('index'));
    expect(m, 'click text limit').not.toBeNull();
    expect(value(m![1])).toBe(CLICKED_TEXT_MAX_CHARS);
    expect(value(m![2])).toBe(CLICKED_TEXT_MAX_CHARS);
  });

  it('exports spans gzip-compressed, 100 at a time, 100 requests at once, a queue of 1000, a 5 s timeout', () => {
    const observe = bundle('observe-');
    const exporter = /concurrencyLimit: ([\d.e]+),\s*timeoutMillis: ([\d.e]+),[^}]*?compression: "(\w+)"/.exec(observe);
    expect(exporter, 'exporter options').not.toBeNull();
    expect(value(exporter![1])).toBe(EXPORT_CONCURRENCY);
    expect(value(exporter![2])).toBe(EXPORT_TIMEOUT_MS);
    expect(exporter![3]).toBe(EXPORT_COMPRESSION);
    const batch = /maxExportBatchSize: ([\d.e]+),\s*maxQueueSize: ([\d.e]+),\s*exportTimeoutMillis: \w+\.timeoutMillis/.exec(observe);
    expect(batch, 'span processor options').not.toBeNull();
    expect(value(batch![1])).toBe(EXPORT_MAX_BATCH);
    expect(value(batch![2])).toBe(EXPORT_MAX_QUEUE);
  });

  it('exports metrics every 60 s with a 30 s timeout: patched at install (scripts/patch-highlight.mjs)', () => {
    const reader =
      /"\/v1\/metrics", timeoutMillis: ([\d.e]+)\s*\}\)\), \w+ = new \w+\(\{\s*exporter: \w+,\s*exportIntervalMillis: ([\d.e]+),\s*exportTimeoutMillis: ([\d.e]+)\s*\}\)/.exec(
        bundle('observe-'),
      );
    expect(reader, 'metric reader options, as patched').not.toBeNull();
    expect(value(reader![1])).toBe(METRIC_EXPORT_TIMEOUT_MS);
    expect(value(reader![2])).toBe(METRIC_EXPORT_INTERVAL_MS);
    expect(value(reader![3])).toBe(METRIC_EXPORT_TIMEOUT_MS);
    // Every patched file is exactly the patch's result.
    for (const patch of HIGHLIGHT_PATCHES) expect(sha256(readFileSync(`${dist}/${patch.file}`, 'utf8')), patch.file).toBe(patch.patched);
  });

  it('diffs style changes without setting a style attribute, which the CSP blocks: patched at install', () => {
    const recorder = bundle('record-');
    expect(recorder).toContain('e.oldValue && (a.style.cssText = e.oldValue);');
    expect(recorder).not.toMatch(/setAttribute\("style"/);
  });

  it('keeps 2000 attribute sets per metric', () => {
    const m = /selectCardinalityLimit = function\(t\) \{\s*return this\._cardinalitySelector \? this\._cardinalitySelector\(t\) : ([\d.e]+);/.exec(
      bundle('observe-'),
    );
    expect(m, 'cardinality limit').not.toBeNull();
    expect(value(m![1])).toBe(METRIC_ATTRIBUTE_CARDINALITY_LIMIT);
  });

  it('retries exports 5 times, from 1 s by ×1.5 up to 5 s, on 429, 502, 503 and 504', () => {
    const observe = bundle('observe-');
    const m = /\w+ = (\d+), \w+ = ([\d.e]+), \w+ = ([\d.e]+), \w+ = ([\d.]+), \w+ = 0\.2;/.exec(observe);
    expect(m, 'retry constants').not.toBeNull();
    expect({ attempts: value(m![1]), initialMs: value(m![2]), multiplier: Number(m![4]), maxMs: value(m![3]) }).toEqual(TRANSPORT_RETRY);
    const statuses = /var t = \[([\d, ]+)\];\s*return t\.includes\(r\);/.exec(observe);
    expect(statuses, 'retryable statuses').not.toBeNull();
    expect((statuses?.[1] ?? '').split(',').map(Number)).toEqual(TRANSPORT_RETRY_STATUSES);
  });

  it('samples scrolls every 100 ms, mouse moves every 50 ms (flushed every 500 ms), media every 500 ms, the viewport every 200 ms', () => {
    const record = bundle('record-');
    const read = (re: RegExp, what: string) => {
      const m = re.exec(record);
      expect(m, what).not.toBeNull();
      return value(m![1]);
    };
    expect(read(/\w+\.scroll \|\| (\d+)\s*\)/, 'scroll')).toBe(SAMPLING_MS.scroll);
    expect(read(/typeof \w+\.mousemove == "number" \? \w+\.mousemove : (\d+)/, 'mouse')).toBe(SAMPLING_MS.mouse);
    expect(read(/typeof \w+\.mousemoveCallback == "number" \? \w+\.mousemoveCallback : (\d+)/, 'mouse flush')).toBe(MOUSE_BATCH_FLUSH_MS);
    expect(read(/\w+\.media \|\| (\d+)\s*\)/, 'media')).toBe(SAMPLING_MS.media);
    expect(read(/height: Number\(\w+\)\s*\}\), \w+ = \w+, \w+ = \w+\);\s*\}\),\s*(\d+)\s*\)/, 'viewport')).toBe(SAMPLING_MS.viewport);
  });
});
