// Why a tool that exists is not offered to a key, in a sentence an agent can act on. The platform
// filters the tool list by the key's scope, its owner's permissions and the workspace's licence (seed
// 000, "What the service does" 3); the capabilities answer names the scopes and the tier but not the
// reason per tool. So the reason is asked of the platform itself, with a request of the tool's first
// backend operation that cannot change anything, and read from the capabilities when the platform's
// answer does not say.
//
// The tool server never makes the tool's call itself: a tool the capabilities do not list is not
// callable through the tool server (seed 000, Authentication 3: "registers only the tools listed"),
// whatever the backend would do with it. The probe is a GET (a safe method, RFC 9110 9.2.1) or a
// request the contract refuses as invalid: every integer id in an /api/v2 path has `minimum: 1`, so
// the ids are sent as 0, and no /api/v2 body is a JSON array, so a body is sent as `[]`. A platform
// that checks the key's rights before the input (the mock does: docs/mock.md, "The MCP backend")
// answers the refusal that applies, 403 with its sentence; one that checks the input first answers
// 400, and the reason is read from the capabilities.
import type { ToolDefinition } from '../lib/tool-schemas.ts';
import type { BackendAnswer, BackendRequest } from './backend.ts';
import { explainFailure } from './errors.ts';

/** What the capabilities answer says of the key (openapi/v2, Capabilities), as far as a reason needs. */
export interface KeyCapabilities {
  tier?: string;
  scopes?: { read?: boolean; write?: boolean };
}

/** The request that asks the platform why, without acting; null when none can be made safely. */
export function probeRequest(tool: ToolDefinition): BackendRequest | null {
  const call = tool['x-backend'][0];
  if (!call) return null;
  const hasId = /\{[^}]+\}/.test(call.path);
  const path = call.path.replace(/\{[^}]+\}/g, '0');
  if (call.method === 'GET') return { method: 'GET', path };
  if (call.method === 'POST' || call.method === 'PUT' || call.method === 'PATCH')
    return { method: call.method, path, body: [] };
  // A DELETE (unban_user) carries no body: only an invalid id keeps it from acting.
  return hasId ? { method: call.method, path } : null;
}

/** The statuses by which the platform refuses the key itself, not the input. */
const REFUSALS = [401, 402, 403];

/**
 * The sentence for a call of a tool the key is not offered: the platform's refusal when the probe
 * got one, else the reason the capabilities show.
 */
export function notOfferedMessage(
  tool: ToolDefinition,
  probe: BackendAnswer | undefined,
  capabilities: KeyCapabilities | undefined,
  offered: readonly string[],
  tools: ReadonlyMap<string, ToolDefinition>,
): string {
  const head = `${tool.name} is not offered to this key, so it was not called.`;
  if (probe && REFUSALS.includes(probe.status)) return `${head} ${explainFailure(tool, probe)}`;
  return `${head} ${reasonFromCapabilities(tool, capabilities, offered, tools)}`;
}

/** The reason the capabilities show: tier, then scope, then the AI switch or the owner's permission. */
export function reasonFromCapabilities(
  tool: ToolDefinition,
  capabilities: KeyCapabilities | undefined,
  offered: readonly string[],
  tools: ReadonlyMap<string, ToolDefinition>,
): string {
  const permission = tool['x-permission'];
  // Another offered tool needing the same permission shows that the owner holds it.
  const holdsPermission =
    !permission || offered.some((name) => tools.get(name)?.['x-permission'] === permission);
  const needsFull = tool['x-licence'].mcpAccess === 'full';
  if (needsFull && capabilities?.tier === 'read')
    return `It changes data, and this workspace allows MCP reads only, so every key is read-only (the platform's capabilities: tier read). Ask your administrator for the workspace's MCP access to be set to full.`;
  if (tool['x-scope'] === 'write' && capabilities?.scopes?.write === false)
    return `It changes data, and this key has only the read scope (the platform's capabilities: write false). Ask your administrator for a key with the write scope.`;
  if (tool['x-licence'].mcpAiAccess && holdsPermission)
    return 'AI tools are disabled on this workspace. An administrator can enable them; until then use the other tools.';
  if (tool['x-licence'].mcpAiAccess)
    return `AI tools are disabled on this workspace, or the key's owner lacks the permission ${permission}. Ask an administrator.`;
  if (permission)
    return `The key's owner lacks the permission ${permission}. Ask an administrator to do it or to grant the permission.`;
  return "The platform's capabilities do not list it for this key. Call tools/list for the tools this key may use.";
}
