// Step 1 (seed 000, "Authentication" 1 and 5): the key in `X-MCP-Key` must be known, not revoked,
// and its owner not banned — else 401 UNAUTHORIZED. The key's SHA-256 is computed once and looked up
// in each tenant's map of digests (domain/mcp-keys.ts says why that is timing-safe); a success stamps
// the key's `lastUsedAt`.
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
    record.lastUsedAt = platform.now();
    return { tenant, key: record, user, scopes: effectiveScopes(tenant, record) };
  }
  return unauthorized('Invalid MCP key.');
}

export const isFailure = (x: Caller | Failure): x is Failure => 'status' in x;
