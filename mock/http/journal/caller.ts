// Who made a request, as the request journal names it: the caller the API's own authentication found
// (v1's tenant, v2's key), so that a request costs no second key lookup, else — for a request refused
// before or by authentication — the caller its credentials name, looked up here.
import type { Request, Response } from 'express';
import { findKey, keyDigest } from '../../domain/mcp-keys.ts';
import type { Platform } from '../../domain/platform.ts';
import { contextOf } from '../request-context.ts';
import type { JournalCaller } from './entry.ts';

/**
 * The caller named by a request's credentials: the site API key's tenant (v1), or the MCP key's
 * tenant, id and owner (v2), whether or not the request was then refused (a read-only key's write
 * is still that key's). Keys are compared as the pipeline compares them (hash, constant time).
 */
export function callerOfCredentials(platform: Platform, req: Request): JournalCaller | null {
  const mcpKey = req.get('x-mcp-key');
  if (mcpKey) {
    const digest = keyDigest(mcpKey);
    for (const tenant of platform.tenants.values()) {
      const key = findKey(tenant.keysByDigest, digest);
      if (key)
        return { tenantId: tenant.id, keyId: key.id, userId: tenant.users.get(key.userId)?.apiId ?? null };
    }
  }
  const siteKey = req.get('x-api-key');
  const tenant = siteKey ? platform.tenantBySiteKey(siteKey) : undefined;
  return tenant ? { tenantId: tenant.id, keyId: null, userId: null } : null;
}

/**
 * The caller of the request `res` answered: as authentication found it, else as `by.identify` names it
 * from the credentials (callerOfCredentials over the platform), else none.
 */
export function callerOf(
  req: Request,
  res: Response,
  by: { identify?: (req: Request) => JournalCaller | null },
): JournalCaller | null {
  const { caller: v2, tenant: v1 } = contextOf(res);
  if (v2) return { tenantId: v2.tenant.id, keyId: v2.key.id, userId: v2.user.apiId };
  if (v1) return { tenantId: v1.id, keyId: null, userId: null };
  return by.identify?.(req) ?? null;
}
