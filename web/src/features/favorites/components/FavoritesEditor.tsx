import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useLocale } from '@/shared/i18n/useLocale';
import type { Instrument, InstrumentId } from '@/entities/instrument/api/types';
import { instrumentNames } from '@/entities/instrument/model/ids';
import { ExchangeBadge } from '@/entities/instrument/ui/ExchangeBadge';
import { moveItem } from '../lib/pending';

export interface FavoritesEditorProps {
  /** The list in its edited order. */
  list: readonly Instrument[];
  /** A new order (after a move or a removal). */
  onChange: (ids: InstrumentId[]) => void;
  /** While saving: nothing can be changed. */
  busy?: boolean;
}

/** The drag in progress: which row, how far the pointer moved, where the row would land. */
interface Drag {
  pointerId: number;
  from: number;
  startY: number;
  dy: number;
  target: number;
  /** Vertical centres of the rows when the drag started. */
  mids: number[];
  /** How far one row is from the next. */
  step: number;
}

type Control = 'handle' | 'up' | 'down' | 'remove';

/**
 * Reordering favourites: drag a row by its handle (mouse, touch or pen — pointer events
 * with pointer capture), press Alt+↑/↓ on a row, or use its move buttons. Every change
 * is announced to screen readers; focus stays with the row that moved.
 */
export function FavoritesEditor({ list, onChange, busy = false }: FavoritesEditorProps) {
  const { t } = useTranslation('favorites');
  const locale = useLocale();
  const [announcement, setAnnouncement] = useState('');
  const [drag, setDrag] = useState<Drag | null>(null);
  const rows = useRef(new Map<InstrumentId, HTMLLIElement>());
  const refocus = useRef<{ id: InstrumentId; control: Control } | null>(null);

  const nameOf = (i: Instrument) => instrumentNames(i, locale).primary;

  // After a keyboard move or removal, put the focus back where the member was.
  useLayoutEffect(() => {
    const wanted = refocus.current;
    refocus.current = null;
    if (!wanted) return;
    const row = rows.current.get(wanted.id);
    const control =
      row?.querySelector<HTMLButtonElement>(`[data-control="${wanted.control}"]:not(:disabled)`) ??
      row?.querySelector<HTMLButtonElement>('[data-control="handle"]');
    control?.focus();
  }, [list]);

  const move = (from: number, to: number, focus?: Control) => {
    const item = list[from];
    if (!item || to < 0 || to >= list.length || from === to || busy) return;
    if (focus) refocus.current = { id: item.id, control: focus };
    onChange(moveItem(list, from, to).map((i) => i.id));
    setAnnouncement(t('moved', { name: nameOf(item), position: to + 1, count: list.length }));
  };

  const remove = (index: number) => {
    const item = list[index];
    if (!item || busy) return;
    const neighbour = list[index + 1] ?? list[index - 1];
    if (neighbour) refocus.current = { id: neighbour.id, control: 'remove' };
    onChange(list.filter((_, i) => i !== index).map((i) => i.id));
    setAnnouncement(t('removedItem', { name: nameOf(item) }));
  };

  const onRowKeyDown = (index: number) => (event: KeyboardEvent) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    const control = ((event.target as HTMLElement).dataset.control as Control | undefined) ?? 'handle';
    move(index, event.key === 'ArrowUp' ? index - 1 : index + 1, control);
  };

  // ---- pointer drag ----
  const onPointerDown = (index: number) => (event: PointerEvent<HTMLElement>) => {
    if (busy || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const rects = list.map((i) => rows.current.get(i.id)?.getBoundingClientRect());
    const mids = rects.map((r) => (r ? r.top + r.height / 2 : 0));
    const here = rects[index];
    const next = rects[index + 1] ?? rects[index - 1];
    const step = here && next ? Math.abs(next.top - here.top) : (here?.height ?? 0);
    setDrag({ pointerId: event.pointerId, from: index, startY: event.clientY, dy: 0, target: index, mids, step });
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const dy = event.clientY - drag.startY;
    const centre = drag.mids[drag.from]! + dy;
    // The new index: how many other rows' centres are above the dragged row's centre.
    const target = drag.mids.reduce((n, mid, i) => (i !== drag.from && mid < centre ? n + 1 : n), 0);
    setDrag({ ...drag, dy, target });
  };

  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    setDrag(null);
    move(drag.from, drag.target);
  };

  const onPointerCancel = () => setDrag(null);

  /** Where a row is drawn during a drag: the dragged one follows the pointer, the others make room. */
  const offset = (i: number): number => {
    if (!drag) return 0;
    if (i === drag.from) return drag.dy;
    if (drag.from < i && i <= drag.target) return -drag.step;
    if (drag.target <= i && i < drag.from) return drag.step;
    return 0;
  };

  return (
    <>
      <p className="favorites__hint">{t('editHint')}</p>
      <ol className={`fav-edit${drag ? ' fav-edit--dragging' : ''}`} aria-label={t('editList')} data-testid="favorites-editor">
        {list.map((item, index) => {
          const name = nameOf(item);
          const dy = offset(index);
          const dragged = drag?.from === index;
          return (
            // Alt+↑/↓ from any of the row's buttons moves the row (delegated to the row).
            // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
            <li
              key={item.id}
              ref={(el) => {
                if (el) rows.current.set(item.id, el);
                else rows.current.delete(item.id);
              }}
              className={`fav-edit__row${dragged ? ' fav-edit__row--dragged' : ''}`}
              style={dy ? { transform: `translateY(${dy}px)` } : undefined}
              onKeyDown={onRowKeyDown(index)}
              data-testid="favorite-edit-row"
              data-id={item.id}
            >
              <button
                type="button"
                className="fav-edit__handle"
                aria-label={t('handle', { name })}
                aria-describedby="favorites-edit-hint"
                data-control="handle"
                disabled={busy}
                onPointerDown={onPointerDown(index)}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerCancel}
                onLostPointerCapture={onPointerCancel}
                data-testid="drag-handle"
              >
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                  {[7, 12, 17].flatMap((y) =>
                    [9, 15].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.6" fill="currentColor" />),
                  )}
                </svg>
              </button>
              <span className="fav-edit__names">
                <span className="fav-edit__name">{name}</span>
                <span className="fav-edit__meta">
                  {item.ticker} <ExchangeBadge instrument={item} />
                </span>
              </span>
              <span className="fav-edit__actions">
                <button
                  type="button"
                  className="fav-edit__button"
                  aria-label={t('moveUp', { name })}
                  data-control="up"
                  disabled={busy || index === 0}
                  onClick={() => move(index, index - 1, 'up')}
                >
                  <Chevron up />
                </button>
                <button
                  type="button"
                  className="fav-edit__button"
                  aria-label={t('moveDown', { name })}
                  data-control="down"
                  disabled={busy || index === list.length - 1}
                  onClick={() => move(index, index + 1, 'down')}
                >
                  <Chevron />
                </button>
                <button
                  type="button"
                  className="fav-edit__button fav-edit__button--remove"
                  aria-label={t('remove', { name })}
                  data-control="remove"
                  disabled={busy}
                  onClick={() => remove(index)}
                >
                  <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                    <path d="M5 12h14" strokeLinecap="round" />
                  </svg>
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <p id="favorites-edit-hint" className="visually-hidden">
        {t('editHint')}
      </p>
      <p className="visually-hidden" role="status" data-testid="reorder-announcement">
        {announcement}
      </p>
    </>
  );
}

function Chevron({ up = false }: { up?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d={up ? 'm6 15 6-6 6 6' : 'm6 9 6 6 6-6'} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
