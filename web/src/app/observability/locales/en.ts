import type { MessageShape } from '@/shared/i18n/types';
import type { feedbackKo } from './ko';

/** English messages of the feedback form, loaded only when English is chosen. */
export const feedbackEn = {
  title: 'Send feedback',
  intro: 'Tell us what got in your way or what you would like. It is sent along with the recording of this visit.',
  verbatim: 'Feedback',
  verbatimRequired: 'Please write your feedback.',
  name: 'Name (optional)',
  email: 'Email (optional)',
  emailHint: 'Leave it if you would like an answer.',
  emailInvalid: 'Please check the email address.',
  submit: 'Send',
  sent: 'Thank you — your feedback was sent.',
  unavailable: 'Feedback cannot be sent right now. Please try again later.',
} as const satisfies MessageShape<typeof feedbackKo>;
