// A shared store's URL as the mock shows it (the banner, logs, error texts), without its password:
// apart from postgres-store.ts, so a mock without --store does not load pg to word a refusal.

/** The store's URL with its password hidden, for the banner, logs and error texts. */
export function maskedStoreUrl(url: string): string {
  try {
    const { protocol, username, password, host, pathname } = new URL(url);
    const user = username ? `${username}${password ? ':•••' : ''}@` : '';
    return `${protocol}//${user}${host}${pathname}`;
  } catch {
    return 'the store (its URL cannot be read)';
  }
}
