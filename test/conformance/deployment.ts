// The mock made into a deployment the whole suite can run against, as a vendor would prepare theirs
// (docs/conformance.md, "Run it"): keys of the three other roles, a chain the admin owns, tenants in
// the other licence states with a key each, and a revoked key. Minted through the admin API, so the
// suite's tests and the guide's example show the same steps.
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { ConformanceConfig } from '../../conformance/context.ts';
import { createHttpApp, type HttpOptions } from '../../mcp-server/http.ts';
import { ToolRunner } from '../../mcp-server/tools.ts';
import { DEMO_SITE_API_KEY, type Harness, READ_KEY, WRITE_KEY } from '../mock/harness.ts';

/** The demo users whose keys stand for each role (mock/seed/demo.ts). */
export const ROLE_USERS = { manager: 'max', author: 'aria', learner: 'lena' } as const;
/** The demo's "Onboarding path", owned by Ada, the owner of the demo MCP keys. */
export const ADMIN_CHAIN = 1;

export interface DeploymentKeys {
  site: string;
  read: string;
  write: string;
  roles: Record<keyof typeof ROLE_USERS, string>;
  tenants: { read: string; none: string; 'no-ai': string };
  revoked: string;
}

/**
 * A fresh demo platform prepared for a complete run: generation jobs that finish at once (the test
 * clock is frozen), role keys, licence tenants and a revoked key. Returns the keys. Only the admin
 * API is used, so a mock started as a process (test/e2e) is prepared the same way.
 */
export async function prepareDeployment(h: Pick<Harness, 'admin' | 'newKey'>): Promise<DeploymentKeys> {
  await h.admin('/reset', { method: 'POST', json: {} });
  await h.admin('/tenants/demo/ai', {
    method: 'PATCH',
    json: { generationMinSeconds: 0, generationMaxSeconds: 0 },
  });
  const roles = Object.fromEntries(
    await Promise.all(
      Object.entries(ROLE_USERS).map(async ([role, user]) => [
        role,
        (await h.newKey(user, ['read', 'write'])).key,
      ]),
    ),
  ) as DeploymentKeys['roles'];
  const tenant = async (id: string, licence: { mcpAccess: string; mcpAiAccess?: boolean }) => {
    await h.admin('/tenants', { method: 'POST', json: { id, ...licence } });
    const { body } = await h.admin(`/tenants/${id}/mcp-keys`, {
      method: 'POST',
      json: { userId: 'admin', scopes: ['read', 'write'] },
    });
    return (body as { key: string }).key;
  };
  const tenants = {
    read: await tenant('licence-read', { mcpAccess: 'read' }),
    none: await tenant('licence-none', { mcpAccess: 'none' }),
    'no-ai': await tenant('licence-no-ai', { mcpAccess: 'full', mcpAiAccess: false }),
  };
  const revoked = await h.newKey('ada', ['read']);
  await h.admin(`/tenants/demo/mcp-keys/${revoked.id}`, { method: 'DELETE' });
  return { site: DEMO_SITE_API_KEY, read: READ_KEY, write: WRITE_KEY, roles, tenants, revoked: revoked.key };
}

/** The configuration of a complete run against `baseUrl` with these keys: every flag the suite has. */
export const completeConfig = (
  baseUrl: string,
  keys: DeploymentKeys,
  over: Partial<ConformanceConfig> = {},
): ConformanceConfig => ({
  baseUrl,
  apiKey: keys.site,
  mcpKeys: [keys.read, keys.write],
  roleKeys: { ...keys.roles },
  chainId: ADMIN_CHAIN,
  tenantKeys: { ...keys.tenants },
  revokedKey: keys.revoked,
  probeLimits: true,
  uploadDir: tmpdir(),
  allowWrites: true,
  expertUserId: 'otto',
  pollIntervalMs: 10,
  ...over,
});

/**
 * The kit's MCP tool server over HTTP in front of `baseUrl` (the mock, or the fault proxy before it),
 * reading uploads from the directory `completeConfig` names as `--upload-dir`. Its URL, and how to
 * stop it.
 */
export async function startToolServer(
  baseUrl: string,
  options: Partial<HttpOptions> = {},
): Promise<{ url: string; close: () => void }> {
  const app = createHttpApp({
    baseUrl,
    runner: new ToolRunner(),
    version: 'test',
    host: '127.0.0.1',
    uploadRoot: tmpdir(),
    ...options,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
