/**
 * Members and API calls for the tests, made through the real server's API (no browser):
 * fresh members with unique names, their sign-up, and calls as a member or a visitor.
 */
import assert from 'node:assert/strict';

let counter = 0;

/** A fresh member's email and nickname (unique in the run; nicknames are at most 20 characters). */
export function memberDetails(prefix = 'e2e') {
  counter += 1;
  const id = `${prefix}${Date.now().toString(36)}${counter}`;
  return { email: `${id}@example.com`, nickname: id.slice(0, 20) };
}

/** Signs `member` (`{email, nickname}`) up with `password` on `server`; returns the token. */
export async function signUp(server, member, password) {
  const response = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...member, password }),
  });
  assert.equal(response.status, 201, await response.clone().text());
  return (await response.json()).token;
}

/** A fresh member signed up on `server`: `{ email, nickname, password, token }`. */
export async function newMember(server, { prefix = 'e2e', password = 'e2e member password 1' } = {}) {
  const member = memberDetails(prefix);
  return { ...member, password, token: await signUp(server, member, password) };
}

/**
 * `method path` on `server` as the member of `token` (`null`: a visitor), with a JSON
 * `body`; the JSON answer (`null` for 204). Fails the test on anything but a 2xx.
 */
export async function api(server, token, method, path, body) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body && JSON.stringify(body),
  });
  assert.ok(response.ok, `${method} ${path}: ${response.status} ${await response.clone().text()}`);
  return response.status === 204 ? null : response.json();
}
