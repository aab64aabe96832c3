// MCP keys (seed 000, "MCP key"): a 5-character prefix ending in `_`, then 43 base64url characters
// of 32 random bytes — 48 in all. Only the SHA-256 is kept, and a presented key is looked up by its
// digest (seed 000, Authentication 1): one map lookup per tenant, whatever the number of keys.
//
// Why a map lookup is timing-safe here: what is compared is never the presented key but its
// SHA-256. How long the lookup takes can at most hint at how much of the *digest* matches a stored
// digest, and a caller cannot steer a digest byte by byte without inverting SHA-256, so the hint
// says nothing about how close a guess came to a key. The found digest is still confirmed with
// `timingSafeEqual`, so equality itself never short-circuits on the first differing byte.
import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { forbidden, notFound } from './errors.ts';
import type { McpKey } from './model.ts';
import type { TenantState } from './tenant-state.ts';

export const KEY_PREFIX = 'lmcp_';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function generateKey(): { key: string; prefix: string; hash: string } {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, prefix: KEY_PREFIX, hash: hashKey(key) };
}

/**
 * The SHA-256 of a presented key as hex, computed once per request and looked up in every tenant.
 * One-shot `hash` to hex: a `Hash` object, or a digest as a Buffer, cost several times the hashing
 * itself on every /api/v2 request (bench/RESULTS.md).
 */
export const keyDigest = (key: string): string => hash('sha256', key, 'hex');

/** Stored keys by the hex of their digest, each with the digest's bytes for the final comparison. */
export type KeysByDigest<K> = ReadonlyMap<string, { key: K; digest: Buffer }>;

/** The stored record whose digest equals `digest` (hex): one map lookup, then a constant-time confirmation. */
export function findKey<K>(keys: KeysByDigest<K>, digest: string): K | undefined {
  const entry = keys.get(digest);
  return entry && timingSafeEqual(entry.digest, Buffer.from(digest, 'hex')) ? entry.key : undefined;
}

/** Seed 000, Authentication 7: key generation and revocation need an MCP licence (else 402). */
function requireMcpLicence(t: TenantState): void {
  if (!t.mcpLicensed) {
    throw forbidden('LICENSE_RESTRICTED', 'MCP is not licensed for this workspace');
  }
}

/** A key for a user of the tenant; its hash comes in, the key itself is never stored. */
export function createMcpKey(
  t: TenantState,
  a: { id: string; userId: number; prefix: string; hash: string; scopes: McpKey['scopes'] },
  at: number,
): McpKey {
  requireMcpLicence(t);
  if (!t.users.has(a.userId)) throw notFound(`user ${a.userId}`);
  const key: McpKey = {
    id: a.id,
    userId: a.userId,
    prefix: a.prefix,
    hash: a.hash,
    scopes: a.scopes,
    createdAt: at,
    lastUsedAt: null,
    revokedAt: null,
  };
  t.addMcpKey(key);
  return key;
}

/** Seed 000, Authentication 7: generation and revocation answer 402 without an MCP licence. */
export function revokeMcpKey(t: TenantState, keyId: string, at: number): McpKey {
  requireMcpLicence(t);
  const key = t.mcpKeys.get(keyId);
  if (!key) throw notFound(`key ${keyId}`);
  key.revokedAt ??= at;
  return key;
}
