/** The `/api/me` answers of an operator and of a member, shared by the areas' tests. */
import type { Me } from '@/entities/member/api/me';

export const OPERATOR: Me = {
  user_id: 1,
  nickname: '개미',
  chat_user_id: 'c0ffee00-0000-4000-8000-000000000001',
  created_at: '2026-01-01T00:00:00Z',
  email: 'ops@example.com',
  has_password: true,
  premium: false,
  providers: [],
  role: 'operator',
  email_verified: true,
  consent_required: [],
};

export const MEMBER: Me = { ...OPERATOR, role: 'member' };
