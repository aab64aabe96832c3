// A tenant's MCP access starts at `none` (seed 000, Resources and their fields > Tenant restrictions
// (licence): "`none` (default)"; Authentication 4; rule 000/licence.none) wherever the mock makes a
// tenant without being told otherwise: an empty tenant, the `empty` seed, the scale seed, fixtures that
// give no `mcpAccess`, and a reset to any of them. The demo seed's tenant alone is `full`, the demo's
// choice (openapi/admin ResetRequest `seed`), so its printed keys work from the start.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../domain/clock.ts';
import { Platform } from '../domain/platform.ts';
import { TenantState } from '../domain/tenant-state.ts';
import { DEMO_TENANT } from './demo.ts';
import { fixturesFrom } from './fixture-file.ts';
import { loadSeed } from './index.ts';
import { parseScale, scaleTenant } from './scale.ts';

const fixture = (licence: Record<string, unknown> = {}) =>
  fixturesFrom({
    tenants: [
      {
        id: 'acme',
        ...licence,
        users: [{ id: 'ada', name: 'Ada', email: 'ada@acme.example', role: 'admin' }],
      },
    ],
  });

describe("a tenant's MCP access defaults to none (seed 000, Tenant restrictions (licence): `none` (default); 000/licence.none)", () => {
  it('is none for an empty tenant (TenantState.empty), which every new tenant starts from', () => {
    expect(TenantState.empty('acme', 'Acme', 'acme_site_key_0000000000').mcpAccess).toBe('none');
  });

  it('is none in the `empty` seed, licensed and with AI on, so turning MCP on is one switch', () => {
    const [tenant] = loadSeed('empty').tenants;
    expect(tenant).toMatchObject({
      id: DEMO_TENANT,
      mcpAccess: 'none',
      mcpLicensed: true,
      mcpAiAccess: true,
    });
  });

  it('is none in the scale seed', () => {
    expect(scaleTenant(parseScale('users=10,courses=2,assignments=10')).mcpAccess).toBe('none');
  });

  it('is none for a fixtures tenant that gives no mcpAccess, and what the fixtures give otherwise', () => {
    expect(fixture().state.tenants[0]?.mcpAccess).toBe('none');
    expect(fixture({ mcpAccess: 'full' }).state.tenants[0]?.mcpAccess).toBe('full');
    expect(fixture({ mcpAccess: 'read' }).state.tenants[0]?.mcpAccess).toBe('read');
  });

  it('is none again after a reset to the empty seed, even when the demo before it was full', () => {
    const platform = new Platform(new VirtualClock({ start: 0, frozen: true }), loadSeed);
    platform.load(loadSeed('demo'), true);
    expect(platform.tenant(DEMO_TENANT).mcpAccess).toBe('full');
    platform.run('reset', { seed: 'empty' });
    expect(platform.tenant(DEMO_TENANT).mcpAccess).toBe('none');
    platform.run('updateTenant', { tenantId: DEMO_TENANT, mcpAccess: 'full' });
    platform.run('reset', { seed: 'empty' });
    expect(platform.tenant(DEMO_TENANT).mcpAccess).toBe('none');
  });

  it("keeps the demo seed's tenant at full, the demo's choice, and a reset to the demo brings full back", () => {
    expect(loadSeed('demo').tenants[0]).toMatchObject({ id: DEMO_TENANT, mcpAccess: 'full' });
    const platform = new Platform(new VirtualClock({ start: 0, frozen: true }), loadSeed);
    platform.load(loadSeed('demo'), true);
    platform.run('updateTenant', { tenantId: DEMO_TENANT, mcpAccess: 'none' });
    platform.run('reset', { seed: 'demo' });
    expect(platform.tenant(DEMO_TENANT).mcpAccess).toBe('full');
  });
});
