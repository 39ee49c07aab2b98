/**
 * `POST /api/feedback`: feedback when nothing is recorded (recording off, or a browser the
 * recorder skips). The server stores it with the recorder's feedback, bound to the member
 * when the request carries their token (the API client adds it).
 */
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Feedback } from './recorder';

export type SendFeedbackRequest = ApiSchema<'SendFeedbackRequest'>;

/** Sends `feedback` to the server's own store; resolves whether it was stored. */
export async function postFeedback({ verbatim, userName, userEmail }: Feedback): Promise<boolean> {
  const body: SendFeedbackRequest = {
    verbatim,
    ...(userName ? { user_name: userName } : {}),
    ...(userEmail ? { user_email: userEmail } : {}),
  };
  try {
    await apiRequest<undefined>('/api/feedback', { method: 'POST', body });
    return true;
  } catch {
    return false;
  }
}
