/**
 * Counting the articles announced live on a `news:` topic (docs/news.md, "Live topics"):
 * one frame per new article. The list is not changed under the reader's eyes; the page
 * offers "새 기사 N건", which re-fetches.
 */
import { useCallback, useEffect, useState } from 'react';
import { liveStream } from '@/shared/stream/stream';

/** The topic of a country's (`KR`) or an instrument's (`KRX:005930`) new articles. */
export const newsTopic = (key: string) => `news:${key}`;

/**
 * How many articles arrived on `topic` since it was subscribed or `reset` was called.
 * A `gap` (frames lost) counts as one: at least one article is new, and the pill
 * re-fetches anyway.
 */
export function useNewArticleCount(topic: string): [number, () => void] {
  const [state, setState] = useState({ topic, count: 0 });
  useEffect(() => {
    const bump = () => setState((s) => (s.topic === topic ? { topic, count: s.count + 1 } : { topic, count: 1 }));
    return liveStream().subscribe(topic, bump, bump);
  }, [topic]);
  const reset = useCallback(() => setState({ topic, count: 0 }), [topic]);
  return [state.topic === topic ? state.count : 0, reset];
}
