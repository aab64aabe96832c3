// MCP keys (seed 000, "MCP key"): a 5-character prefix ending in `_`, then 43 base64url characters
// of 32 random bytes — 48 in all. Only the SHA-256 is kept, and a presented key is found by comparing
// its digest with each stored one in constant time (seed 000, Authentication 1), so how long the
// check takes says nothing about how close a guess came.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DomainError, notFound } from './errors.ts';
import type { McpKey } from './model.ts';
import type { TenantState } from './tenant-state.ts';

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

/** Seed 000, Authentication 7: key generation and revocation need an MCP licence (else 402). */
function requireMcpLicence(t: TenantState): void {
  if (!t.mcpLicensed) {
    throw new DomainError(
      'forbidden',
      'MCP is not licensed for this workspace',
      {},
      undefined,
      'LICENSE_RESTRICTED',
    );
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
