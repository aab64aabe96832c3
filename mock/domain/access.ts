// Who an MCP key acts as, and what it may do (seed 000, "Authentication", "Permission identifiers
// used by tools", "Tenant restrictions (licence)"). The key acts as its owner: permissions are the
// owner's role's; the tenant's tier caps every key on every request.
import type { McpAccess, McpKey, User } from './model.ts';
import { hasPermission, type Permission } from './roles.ts';
import type { TenantState } from './tenant-state.ts';

export interface Caller {
  tenant: TenantState;
  key: McpKey;
  user: User;
  /** After the tenant clamp: `write` only on tier `full`. A write key can read too. */
  scopes: { read: boolean; write: boolean };
}

const TIER_RANK: Record<McpAccess, number> = { none: 0, read: 1, full: 2 };
export const tierAtLeast = (tier: McpAccess, needed: McpAccess) => TIER_RANK[tier] >= TIER_RANK[needed];

/** Seed 000: "`read`: all keys treated as read-only, including keys issued with write". */
export function effectiveScopes(tenant: TenantState, key: McpKey): Caller['scopes'] {
  const write = key.scopes.includes('write') && tenant.mcpAccess === 'full';
  return {
    read: tenant.mcpAccess !== 'none' && (key.scopes.includes('read') || key.scopes.includes('write')),
    write,
  };
}

/** What the capabilities filter needs to know of a tool (from its definition in mcp-schema/). */
export interface ToolNeeds {
  name: string;
  scope: 'read' | 'write';
  permission: string | null;
  licence: { mcpAccess: 'read' | 'full'; mcpAiAccess: boolean };
}

/**
 * The tools a key can call (seed 000, "Capabilities response": "after permission, scope and licence
 * filtering"): the key's effective scope, the tenant's tier and AI switch, the owner's permissions.
 */
export function callableTools(caller: Caller, tools: ToolNeeds[]): string[] {
  const { tenant, user, scopes } = caller;
  return tools
    .filter((t) => scopes[t.scope])
    .filter(
      (t) =>
        tierAtLeast(tenant.mcpAccess, t.licence.mcpAccess) && (!t.licence.mcpAiAccess || tenant.mcpAiAccess),
    )
    .filter((t) => t.permission === null || hasPermission(user.role, t.permission as Permission))
    .map((t) => t.name);
}
