/**
 * The member's email: `POST /api/me/email/verification` (send the link again) and
 * `POST /api/auth/email-verification` (the token of the link; no log-in needed).
 */
import { apiRequest, type ApiSchema } from '@/shared/api/client';

export type EmailVerificationRequest = ApiSchema<'EmailVerificationRequest'>;
export type EmailVerificationConfirm = ApiSchema<'EmailVerificationConfirm'>;

export const requestEmailVerification = (body: EmailVerificationRequest) =>
  apiRequest<void>('/api/me/email/verification', { method: 'POST', body });

export const confirmEmailVerification = (body: EmailVerificationConfirm) =>
  apiRequest<void>('/api/auth/email-verification', { method: 'POST', body });
