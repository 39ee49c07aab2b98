/**
 * `/operator/*`: every operator page, one lazy chunk (so the first page's route table
 * carries a single entry for them): the market data providers (`/operator/market`), the
 * house logo and share card (`/operator/branding`) and the observability console (the rest).
 */
import { useParams } from 'react-router';
import { messagesReady as operatorMessagesReady } from '../locales/messages';
import { ProvidersPage } from './ProvidersPage';
import { BrandingPage } from './BrandingPage';
import { ObserveConsole } from './ObserveConsole';
import { messagesReady as observeMessagesReady } from '../locales/observe/messages';

/** Both namespaces of the chunk, for `lazyPage`. */
export const messagesReady = Promise.all([operatorMessagesReady, observeMessagesReady]).then(() => undefined);

/** `/operator/<section>[/<id>]`: more segments than that are an unknown page. */
export function splitOperatorPath(rest: string): { section: string; id: string | undefined; known: boolean } {
  const [section = '', id, ...extra] = rest.split('/');
  return { section, id: id || undefined, known: extra.length === 0 || extra.every((p) => p === '') };
}

export function OperatorRoutes() {
  const { section, id, known } = splitOperatorPath(useParams()['*'] ?? '');
  if (section === 'market' && !id && known) return <ProvidersPage />;
  if (section === 'branding' && !id && known) return <BrandingPage />;
  return <ObserveConsole section={known ? section : '?'} id={id} />;
}
