/** Parameters in a URL fragment (`#token=…&next=…`): the OpenID callback's hand-over, never sent to servers. */
export function fragmentParams(hash: string): URLSearchParams {
  return new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
}
