// Tenant: the licence switches, the site API key, MCP keys (create — the key is shown once — and
// revoke, with when each was last used); the rate-limit and AI-quota counters, with a reset.
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../generated/admin.ts';
import { iso, problem } from '../api.ts';
import { ErrorLine, useConsole, useLoads } from '../shared.tsx';

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
  const [error, setError] = useState<string | null>(null);

  const loads = useLoads();
  const load = async () => {
    const n = loads.begin();
    const [t, k, u, l] = await Promise.all([
      admin.GET('/tenants/{tenantId}', { params: { path } }),
      admin.GET('/tenants/{tenantId}/mcp-keys', { params: { path } }),
      admin.GET('/tenants/{tenantId}/users', { params: { path, query: { limit: 100 } } }),
      admin.GET('/tenants/{tenantId}/limits', { params: { path } }),
    ]);
    if (!loads.take(n)) return;
    if (t.data) setTenant(t.data);
    if (l.data) setLimits(l.data);
    if (k.data) setKeys(k.data.keys);
    if (u.data) {
      setUsers(u.data.users);
      setOwner((o) => o || String(u.data.users[0]?.id ?? ''));
    }
    const refused = t.error ?? k.error ?? u.error ?? l.error;
    setError(refused ? problem(refused) : null);
  };
  useEffect(() => {
    load();
  }, [tenantId]);

  const update = async (patch: components['schemas']['UpdateTenantRequest']) => {
    const { data, error: refused } = await admin.PATCH('/tenants/{tenantId}', {
      params: { path },
      body: patch,
    });
    if (data) setTenant(data);
    setError(data ? null : problem(refused));
  };
  const createKey = async () => {
    const { data, error: refused } = await admin.POST('/tenants/{tenantId}/mcp-keys', {
      params: { path },
      body: { userId: Number(owner), scopes: write ? ['read', 'write'] : ['read'] },
    });
    setError(data ? null : problem(refused));
    await load();
    setCreated(data ? { id: data.id, key: data.key } : null);
  };
  const resetLimits = async () => {
    const { data, error: refused } = await admin.POST('/tenants/{tenantId}/limits/reset', {
      params: { path },
    });
    if (data) setLimits(data);
    setError(data ? null : problem(refused));
  };
  const revoke = async (keyId: string) => {
    const { error: refused } = await admin.DELETE('/tenants/{tenantId}/mcp-keys/{keyId}', {
      params: { path: { tenantId, keyId } },
    });
    setError(refused ? problem(refused) : null);
    await load();
  };

  if (!tenant) return <ErrorLine message={error ?? 'Loading…'} />;
  return (
    <section>
      <h2>Tenant {tenant.name}</h2>
      <ErrorLine message={error} />
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
      <table aria-label="MCP keys">
        <thead>
          <tr>
            <th>id</th>
            <th>owner</th>
            <th>scopes</th>
            <th>created</th>
            <th>last used</th>
            <th>revoked</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr data-id={k.id}>
              <td>{k.id}</td>
              <td>{k.userId}</td>
              <td>{k.scopes.join(', ')}</td>
              <td>{iso(k.createdAt)}</td>
              <td>{iso(k.lastUsedAt)}</td>
              <td>{iso(k.revokedAt)}</td>
              <td>
                {k.revokedAt === null ? (
                  <button type="button" onClick={() => revoke(k.id)}>
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
          <table aria-label="Limits">
            <thead>
              <tr>
                <th>key</th>
                <th>owner</th>
                <th>requests in window</th>
                <th>AI calls today</th>
              </tr>
            </thead>
            <tbody>
              {limits.keys.map((k) => (
                <tr data-id={k.keyId}>
                  <td>{k.keyId}</td>
                  <td>{k.userId}</td>
                  <td>
                    {k.requestsInWindow} of {limits.requestsPerMinute || '∞'}
                  </td>
                  <td>
                    {k.aiCallsToday} of {limits.aiCallsPerKeyPerDay}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={resetLimits}>
            Reset counters
          </button>
        </>
      ) : null}
    </section>
  );
}
