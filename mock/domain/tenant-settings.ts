// A tenant's MCP licence settings (seed 000, Tenant restrictions (licence)): whether MCP is licensed
// at all (key generation and revocation need it), the access tier and the AI switch. Changed through
// the admin API; a field left out keeps its value.
import type { McpAccess } from './model.ts';
import type { TenantState } from './tenant-state.ts';

export interface TenantSettingsPatch {
  mcpLicensed?: boolean;
  mcpAccess?: McpAccess;
  mcpAiAccess?: boolean;
}

export function updateTenantSettings(t: TenantState, patch: TenantSettingsPatch): TenantState {
  if (patch.mcpLicensed !== undefined) t.mcpLicensed = patch.mcpLicensed;
  if (patch.mcpAccess !== undefined) t.mcpAccess = patch.mcpAccess;
  if (patch.mcpAiAccess !== undefined) t.mcpAiAccess = patch.mcpAiAccess;
  return t;
}
