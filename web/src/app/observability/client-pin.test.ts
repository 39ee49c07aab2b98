/**
 * The recording client is pinned, and the spec's recorder figures are the pinned
 * client's own: this reads them out of its published bundle. A new client version must
 * be checked again (design/recorder-protocol.md) before this test is updated.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLICKED_TEXT_MAX_CHARS,
  PAYLOAD_FIRST_PUSH_MS,
  PAYLOAD_PUSH_INTERVAL_MS,
  RECORDED_BODY_MAX_CHARS,
  RECORDED_TEXT_BODY_MAX_CHARS,
  RECORDER_RETRY,
  SESSION_DATA_EXPIRY_MS,
  SESSION_RESET_MS,
} from '@/shared/config/constants';

const PINNED = '9.20.0';
const root = process.cwd();
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
});
