import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { useHref, useLocation, useNavigate } from 'react-router';

export interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An app path (`/settings`). */
  to: string;
  replace?: boolean;
  /**
   * Load the target as a new document (a plain link, no client-side navigation): for
   * pages served with another Content-Security-Policy than the current one, which a
   * client-side navigation would keep (the operator console, whose replays need inline
   * styles).
   */
  reloadDocument?: boolean;
}

/** A plain left click without modifier keys on a same-tab link: handled by the router. */
function isRouterClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

/**
 * A link to an app route: a real `<a href>` (open in new tab, copy link) that navigates
 * client-side on a plain click. Smaller than react-router's `Link`, which carries the
 * framework mode's prefetching.
 */
export function AppLink({ to, replace, reloadDocument = false, onClick, ...rest }: AppLinkProps) {
  const href = useHref(to);
  const navigate = useNavigate();
  return (
    // The content comes in `rest` (children), as for a plain `<a>`.
    // eslint-disable-next-line jsx-a11y/anchor-has-content
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        onClick?.(event);
        if (reloadDocument || !isRouterClick(event)) return;
        event.preventDefault();
        void navigate(to, { replace });
      }}
    />
  );
}

export interface AppNavLinkProps extends AppLinkProps {
  /** Active only on an exact path match (otherwise also on sub-paths). */
  end?: boolean;
}

/** An {@link AppLink} marked `aria-current="page"` and `.active` on its route. */
export function AppNavLink({ to, end = false, className, ...rest }: AppNavLinkProps) {
  const { pathname } = useLocation();
  const active = pathname === to || (!end && to !== '/' && pathname.startsWith(`${to.replace(/\/$/, '')}/`));
  return (
    <AppLink
      {...rest}
      to={to}
      className={active ? `${className ?? ''} active`.trim() : className}
      aria-current={active ? 'page' : undefined}
    />
  );
}
