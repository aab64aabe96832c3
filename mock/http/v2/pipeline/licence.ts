// Steps 3–5 (seed 000, "Tenant restrictions (licence)", "Authentication" 4): the tenant's tier and
// AI switch, applied on every request. `none` → 403 MCP_LICENSE_DISABLED; `read` clamps every key to
// read (done in effectiveScopes), so a write then needs a scope the key no longer has → 403; an AI
// operation with `mcpAiAccess` off → 403 MCP_AI_DISABLED.
import type { Caller } from '../../../domain/access.ts';
import type { Failure } from './failure.ts';

/** The seed's own message (000, Errors). */
export const LICENSE_DISABLED_MESSAGE = 'MCP is not enabled on this workspace, talk to your administrator.';

export function checkLicence(caller: Caller): Failure | null {
  return caller.tenant.mcpAccess === 'none'
    ? { status: 403, code: 'MCP_LICENSE_DISABLED', message: LICENSE_DISABLED_MESSAGE }
    : null;
}

export function checkWriteScope(caller: Caller, operation: { 'x-scope'?: string }): Failure | null {
  if (operation['x-scope'] !== 'write' || caller.scopes.write) return null;
  const why =
    caller.tenant.mcpAccess === 'read'
      ? 'this workspace allows MCP reads only, so every key is read-only'
      : 'this key has only the read scope';
  return { status: 403, code: 'WRITE_SCOPE_REQUIRED', message: `This call needs the write scope: ${why}.` };
}

export function checkAiAccess(
  caller: Caller,
  operation: { 'x-licence'?: { mcpAiAccess?: boolean } },
): Failure | null {
  if (!operation['x-licence']?.mcpAiAccess || caller.tenant.mcpAiAccess) return null;
  return {
    status: 403,
    code: 'MCP_AI_DISABLED',
    message: 'AI tools are disabled on this workspace; an administrator can enable them.',
  };
}
