// What an admin token given on the command line must be (docs/mock.md, Options: --admin-token). The
// admin API replaces the whole state, so its token must not be guessable, and it must be one a client
// can send: `Authorization: Bearer <token>` carries one run of visible ASCII (RFC 6750's token is
// narrower still), so a token with a space or a non-ASCII letter could never match, and a header
// over 16 KB is refused before it is read (refusals.ts).
export const MIN_ADMIN_TOKEN = 16;
export const MAX_ADMIN_TOKEN = 1024;

/** The sentence saying why `token` cannot be the admin token, or null when it can. */
export function adminTokenProblem(token: string): string | null {
  if (token.length >= MIN_ADMIN_TOKEN && token.length <= MAX_ADMIN_TOKEN && /^[\x21-\x7e]+$/.test(token))
    return null;
  const why =
    token.length < MIN_ADMIN_TOKEN
      ? `this one has ${token.length}`
      : token.length > MAX_ADMIN_TOKEN
        ? `this one has ${token.length}`
        : /\s/.test(token)
          ? 'this one has whitespace, which an Authorization header cannot carry inside a token'
          : 'this one has a character outside printable ASCII, which an Authorization header does not carry as such';
  return `--admin-token takes ${MIN_ADMIN_TOKEN} to ${MAX_ADMIN_TOKEN} printable ASCII characters without spaces (a random one is made when it is not given); ${why}`;
}
