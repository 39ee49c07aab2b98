import { useEffect } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocation } from 'react-router';

export interface PageMeta {
  title: string;
  description: string;
}

const OG_LOCALE: Record<string, string> = { ko: 'ko_KR', en: 'en_US' };

/** Finds (or creates) `<meta {attr}="{key}">` in the head and sets its content. */
function setMeta(attr: 'name' | 'property', key: string, content: string): void {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.append(el);
  }
  el.content = content;
}

function setCanonical(href: string): void {
  let el = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!el) {
    el = document.createElement('link');
    el.rel = 'canonical';
    document.head.append(el);
  }
  // The attribute, not the property: a relative href stays relative.
  el.setAttribute('href', href);
}

/**
 * The site's public origin: the origin of the `og:url` the server wrote into the first
 * HTML, which it does only when the operator configured `public_url` (the app keeps
 * that origin when it updates the tag). Without it there is no absolute URL: the page's
 * own address may be an internal host or a proxy's (the server's rule, so both write
 * the same tags).
 */
function configuredOrigin(): string | null {
  const content = document.head.querySelector<HTMLMetaElement>('meta[property="og:url"]')?.content;
  if (!content) return null;
  try {
    return new URL(content).origin;
  } catch {
    return null;
  }
}

/**
 * Keeps the page's title, description and Open Graph tags in step with the screen after
 * client-side navigation and language changes. The server writes the same tags into the
 * first HTML for link previews, which run no JavaScript; absolute URLs (`og:url`, the
 * canonical link) only from the configured public address.
 */
export function usePageMeta({ title, description }: PageMeta): void {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const language = i18n.language;

  useEffect(() => {
    const origin = configuredOrigin();
    document.title = title;
    setMeta('name', 'description', description);
    setMeta('property', 'og:title', title);
    setMeta('property', 'og:description', description);
    if (origin) setMeta('property', 'og:url', `${origin}${pathname}`);
    setMeta('property', 'og:locale', OG_LOCALE[language] ?? 'ko_KR');
    setCanonical(origin ? `${origin}${pathname}` : pathname);
  }, [title, description, pathname, language]);
}
