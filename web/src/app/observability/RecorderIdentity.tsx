import { useEffect } from 'react';
import { useAuth } from '@/entities/member/model/auth-context';
import { setRecorderIdentity } from './index';

/**
 * Tells the session recorder who is logged in: the member's user id and nickname (spec §1),
 * or a visitor. What a change of member does to the recording is decided in `./identity`.
 * Renders nothing; inside `<AuthProvider>`.
 */
export function RecorderIdentity() {
  const { userId, nickname } = useAuth();
  useEffect(() => {
    setRecorderIdentity(userId === null ? null : { id: String(userId), nickname: nickname ?? '' });
  }, [userId, nickname]);
  return null;
}
