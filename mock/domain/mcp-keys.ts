// MCP keys (seed 000, "MCP key"): a 5-character prefix ending in `_`, then 43 base64url characters
// of 32 random bytes — 48 in all. Only the SHA-256 is kept, and a presented key is found by comparing
// its digest with each stored one in constant time (seed 000, Authentication 1), so how long the
// check takes says nothing about how close a guess came.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'lmcp_';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function generateKey(): { key: string; prefix: string; hash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: KEY_PREFIX, hash: hashKey(key) };
}

/** The stored record whose digest equals the presented key's, compared in constant time. */
export function findKey<K extends { digest: Buffer }>(candidates: Iterable<K>, key: string): K | undefined {
  const digest = createHash('sha256').update(key).digest();
  let found: K | undefined;
  // Every candidate is compared, found or not: the time does not depend on where the match is.
  for (const candidate of candidates) if (timingSafeEqual(candidate.digest, digest)) found = candidate;
  return found;
}
