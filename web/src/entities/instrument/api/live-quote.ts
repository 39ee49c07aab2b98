/** Live quotes: the stream's pushed quotes land in the query cache, where every screen reads them. */
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { InstrumentId } from './types';
import { isQuote, useQuote, writeQuote, type UseQuoteOptions } from './quote';
import { liveStream, type GapListener, type TopicListener, type TopicStream } from '@/shared/stream/stream';
import { marketKeys } from './keys';

/** The stream topic of an instrument's quotes. */
export const quoteTopic = (id: InstrumentId) => `quote:${id}`;

interface Writer {
  listener: TopicListener;
  /** Quotes were lost: the quote is fetched again (the newest push follows anyway). */
  onGap: GapListener;
}

/** One cache-writing listener per query client and instrument, shared by every subscriber. */
const writers = new WeakMap<QueryClient, Map<InstrumentId, Writer>>();

function writerFor(client: QueryClient, id: InstrumentId): Writer {
  let byId = writers.get(client);
  if (!byId) {
    byId = new Map();
    writers.set(client, byId);
  }
  let writer = byId.get(id);
  if (!writer) {
    writer = {
      listener: (data) => {
        if (isQuote(data) && data.instrument_id === id) writeQuote(client, data);
      },
      onGap: () => void client.invalidateQueries({ queryKey: marketKeys.quote(id) }),
    };
    byId.set(id, writer);
  }
  return writer;
}

/**
 * Keeps `['market', 'quote', id]` of `client` current from the stream until the returned
 * function is called.
 */
export function subscribeQuote(client: QueryClient, id: InstrumentId, stream: TopicStream = liveStream()): () => void {
  const { listener, onGap } = writerFor(client, id);
  return stream.subscribe(quoteTopic(id), listener, onGap);
}

/** Subscribes to `id`'s quotes while the component is mounted (`null`: nothing). */
export function useQuoteSubscription(id: InstrumentId | null): void {
  const client = useQueryClient();
  useEffect(() => (id ? subscribeQuote(client, id) : undefined), [client, id]);
}

/** `id`'s latest quote, pushed by the stream while the component is mounted. */
export function useLiveQuote(id: InstrumentId, options?: UseQuoteOptions) {
  useQuoteSubscription(id);
  return useQuote(id, options);
}
