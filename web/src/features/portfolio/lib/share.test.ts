import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareFileName } from './share';

describe('shareFileName', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Seoul';
  });
  afterAll(() => {
    process.env.TZ = zone;
  });

  it('is dated on the member’s own calendar, not UTC', () => {
    // 01:30 on 23 November in Seoul is still the 22nd in UTC.
    const early = new Date('2026-11-22T16:30:00Z');
    expect(shareFileName('키움 메인', early)).toBe('moat-키움-메인-2026-11-23.png');
  });

  it('keeps only characters every file system takes', () => {
    expect(shareFileName(' a/b:c*? ', new Date('2026-11-23T03:00:00Z'))).toBe('moat-a-b-c-2026-11-23.png');
    expect(shareFileName('   ', new Date('2026-11-23T03:00:00Z'))).toBe('moat-portfolio-2026-11-23.png');
  });
});
