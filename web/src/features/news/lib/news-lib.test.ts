import { beforeEach, describe, expect, it } from 'vitest';
import { splitByTerms, termPattern } from './highlight';
import { addRecentSearch, clearRecentSearches, MAX_RECENT_SEARCHES, readRecentSearches, removeRecentSearch } from './recent';
import { formatRelativeTime } from './time';

const marked = (text: string, terms: string[]) =>
  splitByTerms(text, termPattern(terms))
    .map((p) => (p.match ? `[${p.text}]` : p.text))
    .join('');

describe('highlighting the matched words', () => {
  it('marks every occurrence of every term, whatever its case', () => {
    expect(marked('Apple beats; apple SHARES rise, APPLE up', ['apple', 'shares'])).toBe('[Apple] beats; [apple] [SHARES] rise, [APPLE] up');
  });

  it('takes terms literally: regex characters are plain text', () => {
    expect(marked('C++ 개발자와 c# 개발자 (주)삼성', ['c++', '(', 'c#'])).toBe('[C++] 개발자와 [c#] 개발자 [(]주)삼성');
    expect(marked('a.b axb', ['a.b'])).toBe('[a.b] axb');
  });

  it('prefers the longer of two overlapping terms and leaves text without terms whole', () => {
    expect(marked('삼성전자우 급등', ['삼성전자', '삼성전자우'])).toBe('[삼성전자우] 급등');
    expect(marked('그대로', [])).toBe('그대로');
    expect(marked('그대로', ['  '])).toBe('그대로');
  });
});

describe('recent searches', () => {
  beforeEach(() => clearRecentSearches());

  it('keeps them newest first, once each, at most ten', () => {
    for (let i = 1; i <= 12; i += 1) addRecentSearch(`q${i}`);
    addRecentSearch('q5');
    addRecentSearch('  ');
    const list = readRecentSearches();
    expect(list).toHaveLength(MAX_RECENT_SEARCHES);
    expect(list.slice(0, 3)).toEqual(['q5', 'q12', 'q11']);
    expect(list.filter((q) => q === 'q5')).toHaveLength(1);
    expect(JSON.parse(window.localStorage.getItem('MOAT_NEWS_RECENT_SEARCHES')!)).toEqual(list);
  });

  it('removes one, and reads a corrupt value as none', () => {
    addRecentSearch('반도체');
    addRecentSearch('삼성전자');
    removeRecentSearch('반도체');
    expect(readRecentSearches()).toEqual(['삼성전자']);
    window.localStorage.setItem('MOAT_NEWS_RECENT_SEARCHES', '{oops');
    expect(readRecentSearches()).toEqual([]);
  });
});

describe('how long ago', () => {
  const now = Date.parse('2026-11-28T03:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('says 방금, N분 전, N시간 전, then the date', () => {
    expect(formatRelativeTime(ago(20_000), 'ko', now, '방금')).toBe('방금');
    expect(formatRelativeTime(ago(5 * 60_000), 'ko', now, '방금')).toBe('5분 전');
    expect(formatRelativeTime(ago(3 * 3_600_000), 'ko', now, '방금')).toBe('3시간 전');
    expect(formatRelativeTime('2026-11-20T03:00:00Z', 'ko', now, '방금')).toBe('11월 20일');
    expect(formatRelativeTime('2025-11-20T03:00:00Z', 'ko', now, '방금')).toBe('2025. 11. 20.');
  });

  it('in English too', () => {
    expect(formatRelativeTime(ago(10_000), 'en', now, 'just now')).toBe('just now');
    expect(formatRelativeTime(ago(60_000), 'en', now, 'just now')).toBe('1 minute ago');
    expect(formatRelativeTime(ago(2 * 3_600_000), 'en', now, 'just now')).toBe('2 hours ago');
    expect(formatRelativeTime('2026-11-20T03:00:00Z', 'en', now, 'just now')).toBe('Nov 20');
  });
});
