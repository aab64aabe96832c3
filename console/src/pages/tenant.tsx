// Tenant: the licence switches, the site API key, MCP keys (create — the key is shown once — and
// revoke, with when each was last used); the rate-limit and AI-quota counters, with a reset.
import { useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { iso } from '../api.ts';
import { type Column, ErrorLine, Table, useConsole } from '../components.tsx';
import { usePage } from '../hooks.ts';

type Tenant = components['schemas']['Tenant'];
type Key = components['schemas']['McpKeyRecord'];
type Access = Tenant['mcpAccess'];
type Limits = components['schemas']['Limits'];

export function TenantPage() {
  const { admin, tenantId } = useConsole();
  const path = { tenantId };
  const [tenant, setTenant] = useState<Tenant | null>(null);
  const [keys, setKeys] = useState<Key[]>([]);
  const [users, setUsers] = useState<components['schemas']['TenantUser'][]>([]);
  const [owner, setOwner] = useState('');
  const [write, setWrite] = useState(false);
  const [created, setCreated] = useState<{ id: string; key: string } | null>(null);
  const [limits, setLimits] = useState<Limits | null>(null);
  const page = usePage(
    () =>
      Promise.all([
        admin.GET('/tenants/{tenantId}', { params: { path } }),
        admin.GET('/tenants/{tenantId}/mcp-keys', { params: { path } }),
        admin.GET('/tenants/{tenantId}/users', { params: { path, query: { limit: 100 } } }),
        admin.GET('/tenants/{tenantId}/limits', { params: { path } }),
      ]),
    ([t, k, u, l]) => {
      if (t.data) setTenant(t.data);
      if (l.data) setLimits(l.data);
      if (k.data) setKeys(k.data.keys);
      if (u.data) {
        setUsers(u.data.users);
        setOwner((o) => o || String(u.data.users[0]?.id ?? ''));
      }
    },
    [tenantId],
  );

  const update = (patch: components['schemas']['UpdateTenantRequest']) =>
    page.call(
      admin.PATCH('/tenants/{tenantId}', { params: { path }, body: patch }),
      (t) => t && setTenant(t),
    );
  const createKey = async () => {
    const key = await page.change(
      admin.POST('/tenants/{tenantId}/mcp-keys', {
        params: { path },
        body: { userId: Number(owner), scopes: write ? ['read', 'write'] : ['read'] },
      }),
    );
    // Shown with the new key's row, once the keys are loaded again.
    setCreated(key ? { id: key.id, key: key.key } : null);
  };
  const resetLimits = () =>
    page.call(admin.POST('/tenants/{tenantId}/limits/reset', { params: { path } }), (l) => l && setLimits(l));
  const revoke = (keyId: string) =>
    page.change(
      admin.DELETE('/tenants/{tenantId}/mcp-keys/{keyId}', { params: { path: { tenantId, keyId } } }),
    );
  const keyColumns: Column<Key>[] = [
    { head: 'id', cell: (k) => k.id },
    { head: 'owner', cell: (k) => k.userId },
    { head: 'scopes', cell: (k) => k.scopes.join(', ') },
    { head: 'created', cell: (k) => iso(k.createdAt) },
    { head: 'last used', cell: (k) => iso(k.lastUsedAt) },
    { head: 'revoked', cell: (k) => iso(k.revokedAt) },
    {
      head: '',
      cell: (k) =>
        k.revokedAt === null ? (
          <button type="button" onClick={() => revoke(k.id)}>
            Revoke
          </button>
        ) : null,
    },
  ];

  if (!tenant) return <ErrorLine message={page.error ?? 'Loading…'} />;
  return (
    <section>
      <h2>Tenant {tenant.name}</h2>
      <ErrorLine message={page.error} />
      <fieldset aria-label="Licence">
        <legend>Licence</legend>
        <label>
          <input
            type="checkbox"
            checked={tenant.mcpLicensed}
            onChange={(e) => update({ mcpLicensed: e.currentTarget.checked })}
          />
          MCP licensed (<code>mcpLicensed</code>)
        </label>
        <label>
          MCP access (<code>mcpAccess</code>)
          <select
            value={tenant.mcpAccess}
            onChange={(e) => update({ mcpAccess: e.currentTarget.value as Access })}
          >
            {(['none', 'read', 'full'] as const).map((a) => (
              <option value={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={tenant.mcpAiAccess}
            onChange={(e) => update({ mcpAiAccess: e.currentTarget.checked })}
          />
          AI tools (<code>mcpAiAccess</code>)
        </label>
      </fieldset>
      <p class="muted" role="status" aria-label="Licence in force">
        In force: licensed {String(tenant.mcpLicensed)}, access {tenant.mcpAccess}, AI{' '}
        {String(tenant.mcpAiAccess)}
      </p>
      <p>
        Site API key (<code>X-API-KEY</code> of <code>/openapi/v1</code>):{' '}
        <code class="secret">{tenant.siteApiKey}</code>
      </p>
      <h3>MCP keys</h3>
      <form
        class="inline"
        aria-label="New MCP key"
        onSubmit={(e) => {
          e.preventDefault();
          createKey();
        }}
      >
        <label>
          Owner
          <select value={owner} onChange={(e) => setOwner(e.currentTarget.value)}>
            {users.map((u) => (
              <option value={String(u.id)}>
                {u.name} ({u.role})
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={write} onChange={(e) => setWrite(e.currentTarget.checked)} /> write
        </label>
        <button type="submit">Create key</button>
      </form>
      {created ? (
        <p class="once" role="status">
          New key <span class="key-id">{created.id}</span>, shown this once:{' '}
          <code class="secret">{created.key}</code>
        </p>
      ) : null}
      <Table label="MCP keys" columns={keyColumns} rows={keys} id={(k) => k.id} />
      {limits ? (
        <>
          <h3>Limits</h3>
          <p class="muted">
            Rate limit {limits.requestsPerMinute || 'off'} requests a minute per key (in memory, this run
            only); AI quota {limits.aiCallsPerKeyPerDay} calls per key and {limits.aiCallsPerTenantPerDay} per
            tenant a day (state, UTC day {limits.day} of the virtual clock).
          </p>
          <p role="status" aria-label="Tenant AI calls today">
            Tenant AI calls today: {limits.aiCallsToday} of {limits.aiCallsPerTenantPerDay}
          </p>
          <Table
            label="Limits"
            columns={[
              { head: 'key', cell: (k) => k.keyId },
              { head: 'owner', cell: (k) => k.userId },
              {
                head: 'requests in window',
                cell: (k) => `${k.requestsInWindow} of ${limits.requestsPerMinute || '∞'}`,
              },
              { head: 'AI calls today', cell: (k) => `${k.aiCallsToday} of ${limits.aiCallsPerKeyPerDay}` },
            ]}
            rows={limits.keys}
            id={(k) => k.keyId}
          />
          <button type="button" onClick={resetLimits}>
            Reset counters
          </button>
        </>
      ) : null}
    </section>
  );
}
