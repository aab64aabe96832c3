// MCP keys (seed 000, MCP key), made and revoked through the admin API; the rules are ../mcp-keys.ts.
import { createMcpKey, revokeMcpKey } from '../mcp-keys.ts';
import type { McpKey } from '../model.ts';
import type { CommandPlatform } from './command.ts';

export const KEY_COMMANDS = {
  /** The key's hash comes in: the key itself is made (randomly) and shown by the caller, never stored. */
  createMcpKey: (
    p: CommandPlatform,
    a: {
      tenantId: string;
      id: string;
      userId: number;
      prefix: string;
      hash: string;
      scopes: McpKey['scopes'];
    },
  ) => createMcpKey(p.tenant(a.tenantId), a, p.now()),

  revokeMcpKey: (p: CommandPlatform, a: { tenantId: string; keyId: string }) =>
    revokeMcpKey(p.tenant(a.tenantId), a.keyId, p.now()),

  /**
   * A key's `lastUsedAt`, in a shared store only (docs/mock.md, Shared sandbox): one process stamps its
   * key records as they are used, without a command (a command per request would be a write per
   * read); replicas log the stamp so every replica shows it, once per key per second of virtual time.
   */
  stampMcpKeyUse: (p: CommandPlatform, a: { tenantId: string; keyId: string }) => {
    const key = p.tenant(a.tenantId).mcpKeys.get(a.keyId);
    if (key) key.lastUsedAt = p.now();
  },
};
