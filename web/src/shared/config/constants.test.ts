import * as c from './constants';

// Each figure is tested where it acts: by the behaviour that uses it (auto-reload,
// delayed scripts, scroll restoration, Kakao links, modal routes, app messages, the
// recorder) or, for figures the pinned recording client implements itself, by
// `app/observability/client-pin.test.ts`, which reads them out of the client.
describe('spec constants', () => {
  it('recorder retry delay is 1000 + 500 × 2^attempt', () => {
    expect(c.recorderRetryDelayMs(0)).toBe(1500);
    expect(c.recorderRetryDelayMs(1)).toBe(2000);
    expect(c.recorderRetryDelayMs(3)).toBe(5000);
    expect(c.recorderRetryDelayMs(9)).toBe(1000 + 500 * 512);
  });
});
