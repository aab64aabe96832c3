// A tenant's settings (the MCP licence), changed through the admin API.

import type { Platform } from '../platform.ts';
import { type TenantSettingsPatch, updateTenantSettings } from '../tenant-settings.ts';

export const TENANT_COMMANDS = {
  updateTenant: (p: Platform, a: { tenantId: string } & TenantSettingsPatch) =>
    updateTenantSettings(p.tenant(a.tenantId), a),
};
