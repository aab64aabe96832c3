// MCP keys (seed 000, "MCP key"): a 5-character prefix ending in `_`, then 43 base64url characters
// of 32 random bytes — 48 in all. Only the SHA-256 is kept; lookups go by hash, and the comparison
// of the found record is constant-time, so a key's validity does not leak through timing.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'lmcp_';
export const KEY_LENGTH = 48;

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function generateKey(): { key: string; prefix: string; hash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: KEY_PREFIX, hash: hashKey(key) };
}

export const looksLikeKey = (key: string) =>
  key.length === KEY_LENGTH && /^[a-z]{4}_[A-Za-z0-9_-]{43}$/.test(key);

/** Constant-time equality of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
