// The console's one way to the mock: the admin client typed from openapi/admin (lib/admin-client.ts),
// on the origin the console was served from, with the token the banner's link carried.
import { type AdminClient, createAdminClient } from '../../lib/admin-client.ts';

const TOKEN_KEY = 'lmskit-admin-token';

/**
 * The admin token: taken from the URL fragment (`#token=…`, the banner's link) into the tab's
 * session storage, and removed from the address bar so it is not shared by copying the URL.
 */
export function signIn(): string | null {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, '', `${location.pathname}#requests`);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/**
 * The admin client, its calls marked as the console's (`X-Lmskit-Console`): the mock leaves them out
 * of its request journal, which keeps room for the clients under test (docs/console.md, Requests).
 */
export function clientFor(token: string): AdminClient {
  const admin = createAdminClient(location.origin, token);
  admin.use({
    onRequest: ({ request }) => {
      request.headers.set('x-lmskit-console', '1');
      return request;
    },
  });
  return admin;
}

/** The `{error, code}` of an admin API refusal as one line. */
export function problem(error: unknown): string {
  const e = error as { error?: string; code?: string } | undefined;
  return e?.error ? `${e.code ?? 'ERROR'}: ${e.error}` : String(error);
}

/** Saves `data` as a file the browser downloads. */
export function download(name: string, data: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

/** Unix seconds of the virtual clock as ISO 8601. */
export const iso = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined
    ? '—'
    : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
