/**
 * Request and response types of the accounts API (`docs/accounts.md`), from the generated
 * OpenAPI schema (`shared/api/schema.d.ts`). The rest of the feature imports only these
 * names, so a schema rename is a change here alone.
 */
import type { ApiSchema } from '@/shared/api/client';

/** `200/201 {token}`: log-in, sign-up, nickname and password changes. */
export type TokenResponse = ApiSchema<'TokenResponse'>;
/** `POST /api/auth/signup`. */
export type SignupRequest = ApiSchema<'SignupRequest'>;
/** `POST /api/auth/login`; `link_ticket` (from the OpenID flow) links that identity once the password proves the account. */
export type LoginRequest = ApiSchema<'LoginRequest'>;
/** `POST /api/auth/oidc/signup`. */
export type OidcSignupRequest = ApiSchema<'OidcSignupRequest'>;
/** `PATCH /api/me`. */
export type UpdateMeRequest = ApiSchema<'UpdateMeRequest'>;
/** `POST /api/me/password`; `current_password` is required when the member has one. */
export type ChangePasswordRequest = ApiSchema<'ChangePasswordRequest'>;
/** `DELETE /api/me`; `password` is required when the member has one. */
export type DeleteMeRequest = ApiSchema<'DeleteMeRequest'>;
/** `GET /api/users/{nickname}`. */
export type PublicProfile = ApiSchema<'PublicProfile'>;
/** One entry of `GET /api/auth/oidc/providers` (`preset`: `kakao`, `naver`, `google`, `apple` or none). */
export type OidcProvider = ApiSchema<'ProviderInfo'>;
