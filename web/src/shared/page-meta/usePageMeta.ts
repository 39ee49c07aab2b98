import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
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
  el.href = href;
}

/**
 * Keeps the page's title, description and Open Graph tags in step with the screen after
 * client-side navigation and language changes. The server writes the same tags into the
 * first HTML for link previews, which run no JavaScript.
 */
export function usePageMeta({ title, description }: PageMeta): void {
  const { pathname } = useLocation();
  const { i18n } = useTranslation();
  const language = i18n.language;

  useEffect(() => {
    const url = `${window.location.origin}${pathname}`;
    document.title = title;
    setMeta('name', 'description', description);
    setMeta('property', 'og:title', title);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:url', url);
    setMeta('property', 'og:locale', OG_LOCALE[language] ?? 'ko_KR');
    setCanonical(url);
  }, [title, description, pathname, language]);
}
