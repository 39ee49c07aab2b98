/**
 * `/operator/{sessions,errors,feedback,vitals,traces}`: the operator's observability
 * console (docs/observability.md, "Operator read API"). Members who are not operators
 * see a notice, and visitors go to the log-in page. The replay player is a chunk of its
 * own that only the session page loads.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { meQueryOptions } from '@/entities/member/api/me';
import { useAuth } from '@/entities/member/model/auth-context';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { AppLink } from '@/shared/ui/AppLink';
import { Forbidden, Loading, QueryProblem } from '../components/ui';
import { useObserveT } from '../locales/observe/messages';
import { ErrorGroupPage } from './ErrorGroupPage';
import { ErrorGroupsPage } from './ErrorGroupsPage';
import { FeedbackPage } from './FeedbackPage';
import { SessionPage } from './SessionPage';
import { SessionsPage } from './SessionsPage';
import { TracesPage } from './TracesPage';
import { VitalsPage } from './VitalsPage';
import { OBSERVE_ROOT } from '../lib/paths';
import '../components/observe.css';

const SECTIONS = [
  { to: `${OBSERVE_ROOT}/sessions`, key: 'sessions' },
  { to: `${OBSERVE_ROOT}/errors`, key: 'errors' },
  { to: `${OBSERVE_ROOT}/feedback`, key: 'feedback' },
  { to: `${OBSERVE_ROOT}/vitals`, key: 'vitals' },
  { to: `${OBSERVE_ROOT}/traces`, key: 'traces' },
  { to: `${OBSERVE_ROOT}/market`, key: 'market' },
  { to: `${OBSERVE_ROOT}/branding`, key: 'branding' },
  // The news area's page (features/news), linked from here like the others.
  { to: `${OBSERVE_ROOT}/news`, key: 'news' },
] as const;

/** The console's own navigation: a scrolling row of tabs on phones, a wrapped row on desktops. */
function ConsoleNav() {
  const t = useObserveT();
  const { pathname } = useLocation();
  const list = useRef<HTMLUListElement>(null);
  // On phones the tabs scroll sideways: keep the current one in view.
  useEffect(() => {
    const current = list.current?.querySelector<HTMLElement>('[aria-current="page"]');
    const row = list.current?.parentElement;
    if (current && row && row.scrollWidth > row.clientWidth) {
      row.scrollLeft = current.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
    }
  }, [pathname]);
  return (
    <nav className="observe-nav" aria-label={t('nav.label')} data-testid="observe-nav">
      <ul ref={list} className="observe-nav__list">
        {SECTIONS.map(({ to, key }) => (
          <li key={key}>
            <AppLink
              to={to}
              className="observe-nav__link"
              aria-current={pathname === to || pathname.startsWith(`${to}/`) ? 'page' : undefined}
              data-testid={`observe-nav-${key}`}
            >
              {t(`nav.${key}`)}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** An unknown console path (the app's 404 view would cost the first page a preload entry). */
function NoSuchPage() {
  const t = useObserveT();
  return (
    <p className="card observe__note" role="alert" data-testid="observe-not-found">
      {t('common.notFound')}
    </p>
  );
}

/** Renders `children` for an operator (`GET /api/me` → `role`); a notice for anyone else. */
export function OperatorOnly({ children }: { children: ReactNode }) {
  const { userId } = useAuth();
  // Inside RequireAuth there is always a member.
  const me = useQuery(meQueryOptions(userId));
  if (me.isPending) return <Loading />;
  if (me.isError) return <QueryProblem error={me.error} onRetry={() => void me.refetch()} />;
  if (me.data.role !== 'operator') return <Forbidden />;
  return children;
}

/** The page of a console path (`section/id` under `/operator`). */
function ConsolePage({ section, id }: { section: string; id: string | undefined }) {
  switch (section) {
    case '':
      return <Navigate to={`${OBSERVE_ROOT}/sessions`} replace />;
    case 'sessions':
      return id ? <SessionPage key={id} secureId={id} /> : <SessionsPage />;
    case 'errors':
      return id ? <ErrorGroupPage key={id} groupId={id} /> : <ErrorGroupsPage />;
    case 'feedback':
      return id ? <NoSuchPage /> : <FeedbackPage />;
    case 'vitals':
      return id ? <NoSuchPage /> : <VitalsPage />;
    case 'traces':
      return <TracesPage key={id ?? ''} traceId={id} />;
    default:
      return <NoSuchPage />;
  }
}

export interface ObserveConsoleProps {
  /** The path under `/operator`, split: `sessions`, `sessions/<id>`, … */
  section: string;
  id: string | undefined;
}

/**
 * The console, routed by hand from the path under `/operator` (nested `<Routes>` would
 * cost the first page's bundle the exports they need from it).
 */
export function ObserveConsole({ section, id }: ObserveConsoleProps) {
  return (
    <RequireAuth>
      <OperatorOnly>
        <div className="observe">
          <ConsoleNav />
          <ConsolePage section={section} id={id} />
        </div>
      </OperatorOnly>
    </RequireAuth>
  );
}
