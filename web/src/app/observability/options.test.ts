import { describe, expect, it } from 'vitest';
import type { RequestResponsePair } from 'highlight.run';
import { highlightOptions, isSameOrigin, recorderEnvironment, sameOriginPatterns, withoutContents } from './options';

const PAGE = { origin: 'https://moat.example', hostname: 'moat.example', href: 'https://moat.example/portfolios/1' };

function pair(url: string): RequestResponsePair {
  return {
    request: { sessionSecureID: 's', id: '1', url, verb: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
    response: { status: 200, headers: { 'x-b': '2' }, body: '{"b":2}', size: 7 },
    urlBlocked: false,
  };
}

describe('recorder environment (spec §1)', () => {
  it('is development when the host name contains "dev", otherwise production', () => {
    expect(recorderEnvironment('dev.moat.example')).toBe('development');
    expect(recorderEnvironment('moat-dev.example.com')).toBe('development');
    expect(recorderEnvironment('devices.example.com')).toBe('development');
    expect(recorderEnvironment('moat.example')).toBe('production');
    expect(recorderEnvironment('localhost')).toBe('production');
  });
});

describe('client options', () => {
  const options = highlightOptions(PAGE);

  it('send everything to the ingest on this origin, both endpoints set', () => {
    expect(options.backendUrl).toBe('https://moat.example/public');
    expect(options.otlpEndpoint).toBe('https://moat.example');
    expect(options.environment).toBe('production');
    expect(highlightOptions({ ...PAGE, hostname: 'dev.moat.example' }).environment).toBe('development');
  });

  it('turn console errors into error records', () => {
    expect(options.reportConsoleErrors).toBe(true);
  });

  it('leave starting, stopping and background recording to the driver', () => {
    expect(options.manualStart).toBe(true);
    expect(options.disableBackgroundRecording).toBe(false);
  });

  it('record network contents with credentials redacted', () => {
    const network = options.networkRecording;
    if (typeof network !== 'object') throw new Error('network recording options expected');
    expect(network).toMatchObject({ enabled: true, recordHeadersAndBody: true });
    expect(network.networkHeadersToRedact).toEqual(
      expect.arrayContaining(['authorization', 'cookie', 'proxy-authorization', 'set-cookie', 'token', 'x-moat-token']),
    );
    expect(network.networkBodyKeysToRedact).toEqual(expect.arrayContaining(['password', 'new_password', 'token']));
    expect(network.urlBlocklist).toEqual(['/api/auth/', '/api/me']);
  });

  it('keep the contents of this origin’s requests, only the timing of other origins’', () => {
    const network = options.networkRecording;
    if (typeof network !== 'object' || !network.requestResponseSanitizer) throw new Error('sanitizer expected');
    const own = pair('/api/portfolios');
    expect(network.requestResponseSanitizer(own)).toBe(own);
    expect(network.requestResponseSanitizer(pair('https://moat.example/api/x'))).toEqual(pair('https://moat.example/api/x'));
    const other = network.requestResponseSanitizer(pair('https://tracker.example/collect'));
    expect(other).toEqual(withoutContents(pair('https://tracker.example/collect')));
    expect(other?.request).toMatchObject({ url: 'https://tracker.example/collect', verb: 'POST', headers: {}, body: undefined });
    expect(other?.response).toMatchObject({ status: 200, size: 7, headers: {}, body: undefined });
  });

  it('sample canvases at 2 fps, resized by half, at most 360 px (spec §9)', () => {
    expect(options.enableCanvasRecording).toBe(true);
    expect(options.samplingStrategy).toEqual({ canvas: 2, canvasFactor: 0.5, canvasMaxSnapshotDimension: 360 });
  });

  it('add trace headers to this origin only', () => {
    expect(options.tracingOrigins).toEqual(sameOriginPatterns(PAGE.origin));
  });
});

describe('same-origin trace targets', () => {
  const matches = (url: string) => sameOriginPatterns('https://moat.example').some((re) => re.test(url));

  it('this origin, absolute or root-relative', () => {
    expect(matches('https://moat.example/api/portfolios')).toBe(true);
    expect(matches('https://moat.example')).toBe(true);
    expect(matches('https://moat.example?x=1')).toBe(true);
    expect(matches('/api/meta')).toBe(true);
  });

  it('never another origin', () => {
    expect(matches('https://moat.example.evil.com/x')).toBe(false);
    expect(matches('https://moatXexample/x')).toBe(false);
    expect(matches('http://moat.example/x')).toBe(false);
    expect(matches('//cdn.example/x.js')).toBe(false);
    expect(matches('https://flags.example/sdk/evalx/abc/contexts/def')).toBe(false);
    expect(matches('https://events.launchdarkly.com/events/bulk/abc')).toBe(false);
  });

  it('isSameOrigin resolves relative URLs against the page', () => {
    expect(isSameOrigin('/x', 'https://moat.example')).toBe(true);
    expect(isSameOrigin('x', 'https://moat.example', 'https://moat.example/a/b')).toBe(true);
    expect(isSameOrigin('https://other.example/x', 'https://moat.example')).toBe(false);
    expect(isSameOrigin('http://[bad', 'https://moat.example')).toBe(false);
  });
});
