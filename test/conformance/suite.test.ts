// The suite is proven by running it against the mock — every check passes — and
// against the mock with departures from the contract injected through the admin API's faults: for
// each, the check that guards that rule fails and says so.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import type { ConformanceConfig } from '../../conformance/context.ts';
import { toHtml } from '../../conformance/reporters/html.ts';
import { toJunit } from '../../conformance/reporters/junit.ts';
import { exitCode, type RunReport, runChecks } from '../../conformance/runner.ts';
import { createHttpApp } from '../../mcp-server/http.ts';
import { ToolRunner } from '../../mcp-server/tools.ts';
import { DEMO_SITE_API_KEY, type Harness, READ_KEY, startHarness, WRITE_KEY } from '../mock/harness.ts';

let h: Harness;
let mcpUrl = '';
let closeMcp: () => void;

beforeAll(async () => {
  h = await startHarness('demo', { requestsPerMinute: 0 });
  const app = createHttpApp({
    baseUrl: h.base,
    runner: new ToolRunner(),
    version: 'test',
    host: '127.0.0.1',
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  mcpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  closeMcp = () => server.close();
});
afterAll(async () => {
  closeMcp();
  await h.close();
});

const config = (only?: string): ConformanceConfig => ({
  baseUrl: h.base,
  apiKey: DEMO_SITE_API_KEY,
  mcpKeys: [READ_KEY, WRITE_KEY],
  mcpUrl,
  allowWrites: true,
  expertUserId: 'otto',
  ...(only ? { only } : {}),
});

/** A fresh demo platform whose generation jobs finish at once (the frozen clock would never let them). */
async function fresh(): Promise<void> {
  await h.admin('/faults', { method: 'DELETE' });
  await h.admin('/reset', { method: 'POST', json: {} });
  await h.admin('/tenants/demo/ai', {
    method: 'PATCH',
    json: { generationMinSeconds: 0, generationMaxSeconds: 0 },
  });
}

const fault = (method: string, path: string, status: number, body: unknown) =>
  h.admin('/faults', { method: 'POST', json: { method, path, count: 1000, status, body } });

const result = (report: RunReport, id: string) => report.results.find((r) => r.id === id);

describe('the suite against the mock', () => {
  let report: RunReport;
  beforeAll(async () => {
    await fresh();
    report = await runChecks(ALL_CHECKS, config());
  }, 120_000);

  it('runs every check, none skipped, with every key kind, writes and the tool server', () => {
    expect(report.results).toHaveLength(ALL_CHECKS.length);
    expect(report.results.filter((r) => r.status === 'skip')).toEqual([]);
  });

  it('passes every MUST and every SHOULD, so it exits 0', () => {
    expect(report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(exitCode(report)).toBe(0);
  });

  it('covers every operation of v1 and v2 with at least one check', () => {
    const sources = ALL_CHECKS.map((c) => `${c.id} ${c.title} ${c.source}`).join('\n');
    expect(ALL_CHECKS.length).toBeGreaterThanOrEqual(70);
    for (const area of [
      'v1.courses',
      'v1.users',
      'v1.groups',
      'v1.attributes',
      'v1.assignments',
      'v1.statistics',
      'v1.webhooks',
      'v2.users',
      'v2.courses',
      'v2.statistics',
      'v2.audit',
      'v2.ai',
      'mcp.tools',
    ]) {
      expect(
        ALL_CHECKS.some((c) => c.area === area),
        area,
      ).toBe(true);
    }
    expect(sources).toContain('GET /api/v2/mcp/capabilities');
  });

  it('writes JUnit a CI understands and an HTML report a person can read', () => {
    const junit = toJunit(report);
    expect(junit).toMatch(/^<\?xml/);
    expect(junit.match(/<testcase /g)).toHaveLength(report.results.length);
    expect(toHtml(report)).toContain('Every MUST requirement that ran passed');
  });
});

// Each departure: faults that make the mock break one rule, and the check that must then fail.
interface Departure {
  name: string;
  check: string;
  inject: () => Promise<unknown>;
}

const courses = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `Course ${i + 1}`,
    annotation: '',
    isDraft: false,
    createdAt: 1,
    updatedAt: 1,
    publishedAt: 1,
    image: null,
  }));
const v2Users = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    apiId: `u${i + 1}`,
    name: `User ${i + 1}`,
    email: `u${i + 1}@x.example`,
    role: 'learner',
    status: 'active',
  }));
const readTools = [
  'find_user',
  'get_user',
  'find_course',
  'get_course',
  'list_assignments',
  'list_my_assignments',
  'get_compliance_status',
  'list_certificates',
  'get_statistics',
  'get_leaderboard',
  'get_audit_log',
];

const DEPARTURES: Departure[] = [
  {
    name: 'wrong status: a course detail answered 201',
    check: 'v1.courses.detail.contract',
    inject: async () => fault('GET', '/openapi/v1/courses/1', 201, (await h.v1('/courses/1')).body),
  },
  {
    name: 'missing field: the course list without totalCount',
    check: 'v1.courses.list.contract',
    inject: () => fault('GET', '/openapi/v1/courses', 200, { courses: courses(20) }),
  },
  {
    name: 'page of 25',
    check: 'v1.courses.list.page-size',
    inject: () => fault('GET', '/openapi/v1/courses', 200, { courses: courses(25), totalCount: 48 }),
  },
  {
    name: 'ignored auth: the course list answered without a key',
    check: 'v1.auth.missing-key',
    inject: () => fault('GET', '/openapi/v1/courses', 200, { courses: courses(20), totalCount: 48 }),
  },
  {
    name: 'wrong error shape: a v1 404 as {error}',
    check: 'v1.courses.detail.not-found',
    inject: () => fault('GET', '/openapi/v1/courses/999999937', 404, { error: 'not found' }),
  },
  {
    name: 'wrong error code: a v2 401 with code AUTH_FAILED',
    check: 'v2.auth.missing-key',
    inject: () => fault('GET', '/api/v2/courses', 401, { error: 'no key', code: 'AUTH_FAILED' }),
  },
  {
    name: 'limit cap ignored: 51 users for limit 51',
    check: 'v2.users.search.limit-cap',
    inject: () => fault('GET', '/api/v2/users', 200, { users: v2Users(51), totalCount: 60 }),
  },
  {
    name: 'audit log cap ignored: 251 entries',
    check: 'v2.audit.limit-cap',
    inject: () =>
      fault('GET', '/api/v2/audit', 200, {
        entries: Array.from({ length: 251 }, (_, i) => ({
          id: i + 1,
          createdAt: 1,
          author: null,
          action: 'user.ban',
          target: { type: 'user', id: '1' },
          details: {},
        })),
        totalCount: 251,
        limit: 250,
        offset: 0,
      }),
  },
  {
    name: 'wrong tool list: a read-only key offered ban_user',
    check: 'v2.capabilities.tools-agree-with-scopes',
    inject: () =>
      fault('GET', '/api/v2/mcp/capabilities', 200, {
        tier: 'full',
        scopes: { read: true, write: false },
        user: { id: 1, name: 'Ada Admin', email: 'ada@demo.example' },
        tools: [...readTools, 'ban_user'],
        resources: [],
      }),
  },
  {
    name: 'phantom tool: extend_deadline offered',
    check: 'v2.capabilities.no-phantom-tools',
    inject: () =>
      fault('GET', '/api/v2/mcp/capabilities', 200, {
        tier: 'full',
        scopes: { read: true, write: false },
        user: { id: 1, name: 'Ada Admin', email: 'ada@demo.example' },
        tools: [...readTools, 'extend_deadline'],
        resources: [],
      }),
  },
  {
    name: 'read key accepted on a write',
    check: 'v2.scope.read-key-refused-on-writes',
    inject: () => fault('POST', '/api/v2/users/banned', 200, { userId: 1, status: 'banned' }),
  },
  {
    name: 'an expert banned anyway',
    check: 'v1.users.ban.expert',
    inject: () =>
      fault('POST', '/openapi/v1/users/blocked', 200, {
        id: 'otto',
        name: 'Otto Author',
        language: 'en',
        email: 'otto@demo.example',
        isBanned: true,
        role: { alias: 'author' },
        fromApi: true,
      }),
  },
  {
    name: 'duplicate e-mail accepted',
    check: 'v1.users.create.duplicate-email',
    // Every create "succeeds" with the same user, a taken e-mail included.
    inject: () =>
      fault('POST', '/openapi/v1/users', 201, {
        id: 'dup',
        name: 'Dup',
        language: 'en',
        email: 'dup@x.example',
        isBanned: false,
        role: { alias: 'learner' },
        fromApi: true,
        image: null,
        attributes: {},
      }),
  },
];

describe('the suite against a mock that departs from the contract', () => {
  it('injects at least 10 kinds of departure', () => {
    expect(DEPARTURES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(DEPARTURES.map((d) => [d.name, d] as const))(
    '%s → the matching check fails and names it',
    async (_name, departure) => {
      await fresh();
      await departure.inject();
      const area = departure.check.split('.').slice(0, 2).join('.');
      const report = await runChecks(ALL_CHECKS, config(`${area}.*`));
      const verdict = result(report, departure.check);
      expect(verdict?.status, `${departure.check} should fail`).toBe('fail');
      expect(verdict?.reason).toBeTruthy();
      if (verdict?.level === 'MUST') expect(exitCode(report)).toBe(1);
      await h.admin('/faults', { method: 'DELETE' });
    },
    60_000,
  );
});
