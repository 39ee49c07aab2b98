import { useEffect, useRef } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { useFavorites, useSaveFavorites } from '@/entities/instrument/api/favorites';
import { InstrumentRow } from '@/entities/instrument/ui/InstrumentRow';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { FavoritesEditor } from '../components/FavoritesEditor';
import { applyPendingOrder, clearPendingOrder, usePendingOrder, writePendingOrder } from '../lib/pending';
import '../components/favorites.css';
import { refusalText } from '@/shared/api/error-text';

export { messagesReady } from '../locales/messages';

/** `/favorites`, for members (visitors go to log in and come back). */
export function FavoritesRoute() {
  return (
    <RequireAuth>
      <FavoritesPage />
    </RequireAuth>
  );
}

/**
 * The member's favourites with live prices, and an edit mode to reorder and remove them.
 * The order being edited lives in `MOAT_FAVORITE_ASSETS_REORDER` until saved or cancelled,
 * so a reload keeps the edit.
 */
export function FavoritesPage() {
  const { t } = useTranslation('favorites');
  usePageMeta({ title: t('meta.title'), description: t('meta.description') });
  const toast = useToast();
  const favorites = useFavorites();
  const save = useSaveFavorites();
  const pending = usePendingOrder();
  const saved = favorites.data;
  const edited = saved && pending ? applyPendingOrder(saved, pending) : undefined;
  const editing = pending !== undefined && (saved === undefined || edited !== undefined);

  // An edit left from before the reload: resumed if it still fits the saved list, else dropped.
  const resumed = useRef<boolean | null>(pending === undefined ? false : null);
  useEffect(() => {
    if (!saved || resumed.current !== null) return;
    resumed.current = true;
    if (pending && !edited) {
      clearPendingOrder();
      toast.show(t('discarded'));
    } else if (pending) {
      toast.show(t('restored'));
    }
  }, [saved, pending, edited, toast, t]);

  const startEditing = () => {
    if (saved) writePendingOrder(saved.map((i) => i.id));
  };

  const onSave = () => {
    if (!edited) return;
    save.mutate(edited, {
      onSuccess: () => {
        clearPendingOrder();
        toast.show(t('saved'), { tone: 'success' });
      },
      onError: (error) => toast.show(refusalText(error) ?? t('saveFailed'), { tone: 'error' }),
    });
  };

  const count = (editing ? edited : saved)?.length;

  return (
    <div className="favorites" data-testid="favorites-page">
      <div className="favorites__head">
        <h1 className="favorites__title">
          {t('title')}
          {count !== undefined && (
            <>
              {' '}
              <span className="favorites__count">{t('count', { count })}</span>
            </>
          )}
        </h1>
        <div className="favorites__actions">
          {editing ? (
            <>
              <button
                type="button"
                className="button button--secondary"
                onClick={clearPendingOrder}
                disabled={save.isPending}
                data-testid="favorites-cancel"
              >
                {t('cancel')}
              </button>
              <button
                type="button"
                className="button button--primary"
                onClick={onSave}
                disabled={save.isPending || !edited}
                data-testid="favorites-save"
              >
                {save.isPending ? t('saving') : t('save')}
              </button>
            </>
          ) : (
            saved &&
            saved.length > 0 && (
              <button type="button" className="button button--secondary" onClick={startEditing} data-testid="favorites-edit">
                {t('edit')}
              </button>
            )
          )}
        </div>
      </div>

      {favorites.isError ? (
        <div className="favorites__message" role="alert">
          <p>{t('loadFailed')}</p>
          <button type="button" className="button button--secondary" onClick={() => void favorites.refetch()}>
            {t('retry')}
          </button>
        </div>
      ) : !saved ? (
        <div className="favorites__loading" aria-busy="true" />
      ) : editing && edited ? (
        <div className="card favorites__card">
          <FavoritesEditor list={edited} onChange={writePendingOrder} busy={save.isPending} />
        </div>
      ) : saved.length === 0 ? (
        <div className="favorites__message">
          <p>{t('empty')}</p>
          <AppLink to="/search" className="button button--primary">
            {t('findStocks')}
          </AppLink>
        </div>
      ) : (
        <div className="card favorites__card">
          <ul className="instrument-list">
            {saved.map((instrument) => (
              <InstrumentRow key={instrument.id} instrument={instrument} fetchQuote />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
