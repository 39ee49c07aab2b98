import { describe, expect, it } from 'vitest';
import { identityChange } from './identity';

const ant = { id: '1', nickname: '개미' };
const bull = { id: '2', nickname: '황소' };

describe('identity changes', () => {
  it('a visitor logging in: identify the current session', () => {
    expect(identityChange(null, ant)).toEqual({ newSession: false, identify: ant });
  });

  it('logging out: keep the session as it is', () => {
    expect(identityChange(ant, null)).toEqual({ newSession: false, identify: null });
    expect(identityChange(null, null)).toEqual({ newSession: false, identify: null });
  });

  it('another member: a new session, identified as them', () => {
    expect(identityChange(ant, bull)).toEqual({ newSession: true, identify: bull });
  });

  it('the same member: nothing, unless the nickname changed', () => {
    expect(identityChange(ant, { ...ant })).toEqual({ newSession: false, identify: null });
    const renamed = { id: '1', nickname: '큰개미' };
    expect(identityChange(ant, renamed)).toEqual({ newSession: false, identify: renamed });
  });
});
