// Step 1 (seed 000, "Authentication" 1 and 5): the key in `X-MCP-Key` must be known, not revoked,
// and its owner not banned — else 401 UNAUTHORIZED. The key's SHA-256 is computed once and looked up
// in each tenant's map of digests (domain/mcp-keys.ts says why that is timing-safe); a success stamps
// the key's `lastUsedAt` (`stampUse`).
import type { Caller } from '../../../domain/access.ts';
import { effectiveScopes } from '../../../domain/access.ts';
import { findKey, keyDigest } from '../../../domain/mcp-keys.ts';
import type { Platform } from '../../../domain/platform.ts';
import type { Failure } from './failure.ts';

const unauthorized = (message: string): Failure => ({ status: 401, code: 'UNAUTHORIZED', message });

export function authenticate(platform: Platform, key: string | undefined): Caller | Failure {
  if (!key) return unauthorized('Missing X-MCP-Key header: send an MCP key.');
  const digest = keyDigest(key);
  for (const tenant of platform.tenants.values()) {
    const record = findKey(tenant.keysByDigest, digest);
    if (!record) continue;
    if (record.revokedAt !== null) return unauthorized('This MCP key was revoked; generate a new one.');
    const user = tenant.users.get(record.userId);
    if (!user || user.isBanned) return unauthorized("This MCP key's owner is banned or gone.");
    return { tenant, key: record, user, scopes: effectiveScopes(tenant, record) };
  }
  return unauthorized('Invalid MCP key.');
}

export const isFailure = (x: Caller | Failure): x is Failure => 'status' in x;

/**
 * Stamps the caller's key as used now. In one process on its record at once; in a shared store by a
 * logged command, so that every replica shows it, and only when the stamp changes (once per key per
 * second of virtual time): the request goes on once it is committed.
 */
export function stampUse(platform: Platform, caller: Caller): Promise<unknown> | undefined {
  const at = platform.now();
  if (caller.key.lastUsedAt === at) return undefined;
  const shared = platform.sharedLog;
  if (!shared) {
    caller.key.lastUsedAt = at;
    return undefined;
  }
  const ids = { tenantId: caller.tenant.id, keyId: caller.key.id };
  return shared.exclusive(() => {
    // Another request of this key may have stamped it while this one waited for its turn.
    if (platform.tenants.get(ids.tenantId)?.mcpKeys.get(ids.keyId)?.lastUsedAt !== platform.now())
      platform.run('stampMcpKeyUse', ids);
  });
}
