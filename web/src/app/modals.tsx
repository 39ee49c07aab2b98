import { lazy, type ComponentType } from 'react';

/** What every route modal receives. */
export interface RouteModalProps {
  /** Closes the modal (one step back in history, spec §2). */
  onClose: () => void;
}

/**
 * Route modals by name: `?<name>=routeModalTrue` opens one. Each is its own chunk, loaded
 * when first opened. Areas add their modals here.
 */
export const MODALS = {
  language: lazy(() =>
    import('@/features/language-picker/components/LanguagePickerModal').then((m) => ({ default: m.LanguagePickerModal })),
  ),
  feedback: lazy(async () => {
    const m = await import('@/app/observability/FeedbackModal');
    await m.messagesReady;
    return { default: m.FeedbackModal };
  }),
} satisfies Record<string, ComponentType<RouteModalProps>>;

export type ModalName = keyof typeof MODALS;

export const MODAL_NAMES = Object.keys(MODALS) as ModalName[];
