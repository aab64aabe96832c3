// Tenants and their settings (the MCP licence), made and changed through the admin API.
import { SITE_KEY } from '../audit.ts';
import type { McpAccess } from '../model.ts';
import { type TenantSettingsPatch, updateTenantSettings } from '../tenant-settings.ts';
import { TenantState } from '../tenant-state.ts';
import { type CreateUserInput, createUser } from '../users.ts';
import type { CommandPlatform } from './command.ts';

export interface NewTenant {
  id: string;
  name: string;
  siteApiKey: string;
  mcpLicensed: boolean;
  mcpAccess: McpAccess;
  mcpAiAccess: boolean;
}

export const TENANT_COMMANDS = {
  updateTenant: (p: CommandPlatform, a: { tenantId: string } & TenantSettingsPatch) =>
    updateTenantSettings(p.tenant(a.tenantId), a),

  /**
   * A tenant with its first administrator (`input`, role admin): the user seed 000 has generate MCP
   * keys. The administrator is checked before the tenant is added, so a refusal leaves no tenant.
   */
  createTenant: (p: CommandPlatform, a: { tenant: NewTenant; input: CreateUserInput }) => {
    const { id, name, siteApiKey, ...licence } = a.tenant;
    const t = TenantState.empty(id, name, siteApiKey);
    updateTenantSettings(t, licence);
    createUser(t, SITE_KEY, { ...a.input, roleAlias: 'admin' }, p.now());
    return p.addTenant(t);
  },
};
