// `POST /__admin/fixtures` (openapi/admin loadFixtures; docs/mock.md, Fixtures) over HTTP in-process:
// the fixtures replace the state and every API answers from them; a problem is a 400 naming the entry
// and the field with nothing changed; the request journal shows the keys and passwords masked. Every
// answer is checked against the admin contract by the harness.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../lib/paths.ts';
import { type Harness, READ_KEY, startHarness } from './harness.ts';

const example = (name: string) =>
  parse(readFileSync(join(ROOT, 'openapi', 'admin', 'components', 'examples', `${name}.yaml`), 'utf8')).value;
/** The contract's example: tenant acme, ada with a write key, lena overdue on course 3. */
const FIXTURE = example('Fixture');
const ACME_KEY = 'lmcp_fixture-key-ada-read-write-0000000000000000';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.admin('/reset', { method: 'POST', json: { seed: 'demo' } });
});

describe('loadFixtures (POST /__admin/fixtures)', () => {
  it('replaces the state with the fixtures: the clock, the tenant, its users, courses and keys', async () => {
    const loaded = await h.admin('/fixtures', { method: 'POST', json: FIXTURE });
    expect(loaded.status).toBe(200);
    expect(loaded.body).toEqual(example('LoadFixturesResult'));
    expect((await h.admin('/clock')).body).toMatchObject({ now: 1772442000, iso: '2026-03-02T09:00:00Z' });

    const siteApiKey = h.platform.tenant('acme').siteApiKey;
    const courses = await h.v1('/courses', { headers: { 'x-api-key': siteApiKey } });
    expect(courses.body.courses.map((c: { name: string }) => c.name)).toEqual([
      'Onboarding',
      'Code of conduct',
      'Negotiation skills',
    ]);
    const overdue = await h.admin('/tenants/acme/assignments?status=overdue');
    expect(overdue.body.assignments).toMatchObject([{ userId: 2, courseId: 3, status: 'overdue' }]);
    const caps = await h.v2('/mcp/capabilities', { key: ACME_KEY });
    expect(caps.body).toMatchObject({ user: { name: 'Ada Admin' }, scopes: { write: true } });
    // The demo state is gone with its keys.
    expect((await h.v2('/mcp/capabilities', { key: READ_KEY })).status).toBe(401);
    expect((await h.v1('/courses')).status).toBe(401);
  });

  it("starts a tenant that gives no mcpAccess at seed 000's default none: its keys are valid and every MCP call gets 403 MCP_LICENSE_DISABLED (seed 000, Tenant restrictions: `none` (default); 000/licence.none)", async () => {
    const { mcpAccess: _given, ...tenant } = FIXTURE.tenants[0];
    expect(
      (await h.admin('/fixtures', { method: 'POST', json: { ...FIXTURE, tenants: [tenant] } })).status,
    ).toBe(200);
    expect((await h.admin('/tenants/acme')).body).toMatchObject({ mcpAccess: 'none', mcpLicensed: true });
    for (const reply of [
      await h.v2('/mcp/capabilities', { key: ACME_KEY }),
      await h.v2('/users?query=lena', { key: ACME_KEY }),
    ]) {
      expect({ status: reply.status, code: reply.body.code }).toEqual({
        status: 403,
        code: 'MCP_LICENSE_DISABLED',
      });
    }
  });

  it('answers a problem 400 naming the entry and the field, and changes nothing', async () => {
    const users = [
      ...FIXTURE.tenants[0].users,
      { id: 'lisa', name: 'Lisa', email: 'LENA@acme.example', role: 'learner' },
    ];
    const refused = await h.admin('/fixtures', {
      method: 'POST',
      json: { ...FIXTURE, tenants: [{ ...FIXTURE.tenants[0], users }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 'VALIDATION_ERROR',
      error: 'tenants[0].users[3].email: already used by tenants[0].users[1]',
    });
    expect([...h.platform.tenants.keys()]).toEqual(['demo']);
    expect((await h.v1('/courses')).status).toBe(200);
  });

  it('refuses a body the schema does not take, naming the field, and changes nothing', async () => {
    const refused = await h.admin('/fixtures', {
      method: 'POST',
      json: { tenants: [{ id: 'acme', mcpKeys: [{ user: 'ada', key: 'lmcp_short', scopes: ['read'] }] }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error).toContain('body.tenants.0.mcpKeys.0.key: must match pattern');
    expect([...h.platform.tenants.keys()]).toEqual(['demo']);
  });

  it('names ten problems the schema finds, then how many more: 5 000 bad e-mails are one short sentence', async () => {
    const users = Array.from({ length: 5000 }, (_, i) => ({
      id: `u${i}`,
      name: 'U',
      email: `not an e-mail ${i}`,
    }));
    const refused = await h.admin('/fixtures', {
      method: 'POST',
      json: { tenants: [{ id: 'acme', users }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/; and \d+ more$/);
    expect(refused.body.error.split('; ')).toHaveLength(11);
    expect([...h.platform.tenants.keys()]).toEqual(['demo']);
  });

  it('needs the admin token', async () => {
    const refused = await fetch(`${h.base}/__admin/fixtures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(FIXTURE),
    });
    expect(refused.status).toBe(401);
    expect([...h.platform.tenants.keys()]).toEqual(['demo']);
  });

  it('is journalled with the keys and passwords masked (docs/mock.md, Secrets in the journal)', async () => {
    const users = [{ ...FIXTURE.tenants[0].users[0], password: 'ada-password-123' }];
    const fixture = { tenants: [{ ...FIXTURE.tenants[0], users, groups: [], assignments: [] }] };
    expect((await h.admin('/fixtures', { method: 'POST', json: fixture })).status).toBe(200);
    const { body } = await h.admin('/journal?api=admin&method=POST&limit=1');
    const detail = (await h.admin(`/journal/${body.requests[0].id}`)).body;
    expect(detail.entry).toMatchObject({ operationId: 'loadFixtures', status: 200 });
    const sent = detail.request.body.tenants[0];
    expect(sent.mcpKeys[0].key).toBe(`••••${ACME_KEY.slice(-4)}`);
    expect(sent.users[0].password).toBe('••••');
    expect(JSON.stringify(detail)).not.toContain(ACME_KEY);
    expect(JSON.stringify(detail)).not.toContain('ada-password-123');
  });
});
