/** Live quotes: the stream's pushed quotes land in the query cache, where every screen reads them. */
import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { InstrumentId } from './api-types';
import { isQuote, useQuote, writeQuote, type UseQuoteOptions } from './quote';
import { marketStream, type TopicListener, type TopicStream } from './stream';

/** The stream topic of an instrument's quotes. */
export const quoteTopic = (id: InstrumentId) => `quote:${id}`;

/** One cache-writing listener per query client and instrument, shared by every subscriber. */
const writers = new WeakMap<QueryClient, Map<InstrumentId, TopicListener>>();

function writerFor(client: QueryClient, id: InstrumentId): TopicListener {
  let byId = writers.get(client);
  if (!byId) {
    byId = new Map();
    writers.set(client, byId);
  }
  let writer = byId.get(id);
  if (!writer) {
    writer = (data) => {
      if (isQuote(data) && data.instrument_id === id) writeQuote(client, data);
    };
    byId.set(id, writer);
  }
  return writer;
}

/**
 * Keeps `['market', 'quote', id]` of `client` current from the stream until the returned
 * function is called.
 */
export function subscribeQuote(client: QueryClient, id: InstrumentId, stream: TopicStream = marketStream()): () => void {
  return stream.subscribe(quoteTopic(id), writerFor(client, id));
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
