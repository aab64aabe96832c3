// MCP keys (seed 000, "MCP key"): a 5-character prefix ending in `_`, then 43 base64url characters
// of 32 random bytes — 48 in all. Only the SHA-256 is kept, and a presented key is looked up by its
// digest (seed 000, Authentication 1): one map lookup per tenant, whatever the number of keys.
//
// Why a map lookup is timing-safe here: what is compared is never the presented key but its
// SHA-256. How long the lookup takes can at most hint at how much of the *digest* matches a stored
// digest, and a caller cannot steer a digest byte by byte without inverting SHA-256, so the hint
// says nothing about how close a guess came to a key. The found digest is still confirmed with
// `timingSafeEqual`, so equality itself never short-circuits on the first differing byte.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'lmcp_';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function generateKey(): { key: string; prefix: string; hash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: KEY_PREFIX, hash: hashKey(key) };
}

/** The SHA-256 of a presented key, computed once per request and looked up in every tenant. */
export const keyDigest = (key: string): Buffer => createHash('sha256').update(key).digest();

/** Stored keys by the hex of their digest, each with the digest's bytes for the final comparison. */
export type KeysByDigest<K> = ReadonlyMap<string, { key: K; digest: Buffer }>;

/** The stored record whose digest equals `digest`: one map lookup, then a constant-time confirmation. */
export function findKey<K>(keys: KeysByDigest<K>, digest: Buffer): K | undefined {
  const entry = keys.get(digest.toString('hex'));
  return entry && timingSafeEqual(entry.digest, digest) ? entry.key : undefined;
}
