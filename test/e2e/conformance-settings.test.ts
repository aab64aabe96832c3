// `lmskit conformance` run as a vendor runs it, with a wrong setting: each is one sentence and exit 2
// (a usage or configuration error, nothing judged; docs/conformance.md, "Outcome and exit code"),
// found before any check runs, never a stack trace nor a verdict about the deployment. And
// `--role-key ROLE=none` (seed 000, Resources > MCP key: a key is created by an admin): that role's
// checks are not applicable and do not keep a run from passing.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf, type RunReport } from '../../conformance/runner.ts';
import type { Result } from '../../conformance/types.ts';
import { runConformance } from '../../package/index.ts';
import { freePort, type RunningProcess, runLmskit, startLmskit } from './process.ts';

const TOKEN = 'conformance-settings-token';
const SITE_KEY = 'demo_site_key_4f1c9a7e2b6d8053';
let mock: RunningProcess;
let base = '';
let closed = '';

beforeAll(async () => {
  const port = await freePort();
  mock = await startLmskit(['mock', '--port', String(port), '--admin-token', TOKEN], /try: curl/);
  base = `http://127.0.0.1:${port}`;
  // A port nothing listens on: free a moment ago, and nobody here listens on it.
  closed = `http://127.0.0.1:${await freePort()}`;
});
afterAll(() => {
  mock?.child.kill();
});

/** Runs the command; its exit code and what it printed, which must be one sentence without a stack. */
async function conformance(...args: string[]) {
  const { code, output } = await runLmskit(['conformance', ...args]);
  expect(output).not.toMatch(/\n\s+at |TypeError|fetch failed|Error:/);
  return { code, output: output.trim() };
}

describe('a setting the run cannot be judged with: exit 2, one sentence, before any check', () => {
  it('--base-url without a scheme', async () => {
    for (const url of ['127.0.0.1:4010', 'localhost:4010']) {
      const { code, output } = await conformance('--base-url', url);
      expect(code).toBe(2);
      expect(output).toMatch(`give it with its scheme, e.g. http://${url}`);
      expect(output).not.toMatch(/MUST|failed logins/);
    }
  });

  it('--base-url that is not http(s)', async () => {
    const { code, output } = await conformance('--base-url', 'ftp://example.com');
    expect(code).toBe(2);
    expect(output).toMatch('is not an http(s) URL');
  });

  it('--base-url of a port nothing listens on: refused, naming the URL', async () => {
    const { code, output } = await conformance('--base-url', closed, '--api-key', SITE_KEY);
    expect(code).toBe(2);
    expect(output).toBe(
      `lmskit conformance: cannot reach --base-url ${closed}: the connection was refused: nothing listens on ${new URL(closed).host}`,
    );
  });

  it('--base-url of a host that does not resolve', async () => {
    const { code, output } = await conformance('--base-url', 'http://nowhere.invalid');
    expect(code).toBe(2);
    expect(output).toMatch(
      /^lmskit conformance: cannot reach --base-url http:\/\/nowhere\.invalid: no such host: nowhere\.invalid does not resolve/,
    );
  });

  it('--base-url https:// of a server that speaks no TLS: the TLS handshake failed', async () => {
    const https = base.replace('http:', 'https:');
    const { code, output } = await conformance('--base-url', https);
    expect(code).toBe(2);
    expect(output).toMatch(`cannot reach --base-url ${https}: the TLS handshake failed`);
  });

  it("--base-url naming an API's path: give the site's root", async () => {
    for (const path of ['/openapi/v1', '/api/v2', '/api/v2/']) {
      const { code, output } = await conformance('--base-url', `${base}${path}`, '--api-key', SITE_KEY);
      expect(code).toBe(2);
      expect(output).toMatch(`give the site's root, ${base} (the suite adds /openapi/v1 and /api/v2 itself)`);
    }
    // Any other path where the APIs are not found: found by the 404 of the one request the preflight sends.
    const { code, output } = await conformance('--base-url', `${base}/lms`, '--api-key', SITE_KEY);
    expect(code).toBe(2);
    expect(output).toMatch(`answered 404; give the site's root`);
  });

  it('a wrong --api-key: the deployment refused the --api-key (401)', async () => {
    const { code, output } = await conformance('--base-url', base, '--api-key', 'not-the-site-key');
    expect(code).toBe(2);
    expect(output).toMatch(/^lmskit conformance: the deployment refused the --api-key \(401\)/);
    expect(output).not.toMatch(/FAILED|MUST/);
  });

  it('--mcp-url of a port nothing listens on; --role-key of a role there is none of', async () => {
    const mcp = await conformance('--base-url', base, '--mcp-url', `${closed}/mcp`);
    expect(mcp.code).toBe(2);
    expect(mcp.output).toMatch(`cannot reach --mcp-url ${closed}/mcp: the connection was refused`);
    const role = await conformance('--base-url', base, '--role-key', 'lerner=abc');
    expect(role.code).toBe(2);
    expect(role.output).toMatch('--role-key lerner: the role is one of manager, author, learner');
  });

  it('--help names the exit codes', async () => {
    const { code, output } = await runLmskit(['conformance', '--help']);
    expect(code).toBe(0);
    expect(output).toMatch(/0 every MUST ran and passed/);
    expect(output).toMatch(/1 a MUST failed/);
    expect(output).toMatch(/2 usage or configuration error, nothing judged/);
    expect(output).toMatch(/3 incomplete/);
  });

  it('runConformance rejects with the same sentence, naming its options', async () => {
    await expect(runConformance({ baseUrl: '127.0.0.1:4010' })).rejects.toThrow(
      /^runConformance: baseUrl 127\.0\.0\.1:4010 is not a URL/,
    );
    await expect(runConformance({ baseUrl: closed })).rejects.toThrow(
      `runConformance: cannot reach baseUrl ${closed}: the connection was refused`,
    );
    await expect(runConformance({ baseUrl: 'http://nowhere.invalid' })).rejects.toThrow(/no such host/);
    await expect(runConformance({ baseUrl: `${base}/openapi/v1` })).rejects.toThrow(/give the site's root/);
    await expect(runConformance({ baseUrl: base, apiKey: 'wrong' })).rejects.toThrow(
      /^runConformance: the deployment refused the apiKey \(401\)/,
    );
    await expect(runConformance({ baseUrl: base, roleKeys: { lerner: 'x' } })).rejects.toMatchObject({
      name: 'SettingError',
    });
  });
});

describe('--role-key ROLE=none: the deployment gives no keys to ROLE', () => {
  it('from the command line: the learner check is not applicable, listed with its reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lmskit-conf-'));
    const json = join(dir, 'report.json');
    const { code, output } = await conformance(
      '--base-url',
      base,
      '--api-key',
      SITE_KEY,
      '--role-key',
      'learner=none',
      '--only',
      'v2.auth.banned-owner',
      '--report',
      `json=${json}`,
    );
    expect(output).toMatch('v2.auth.banned-owner — not applicable: the deployment gives no keys to learner');
    // Deselected checks keep this partial run incomplete (3), never failed.
    expect(code).toBe(3);
    const report = JSON.parse(readFileSync(json, 'utf8')) as { results: Result[] };
    expect(report.results.find((r) => r.id === 'v2.auth.banned-owner')).toMatchObject({
      status: 'skip',
      reason: 'not applicable: the deployment gives no keys to learner',
      optIn: '--role-key learner=none',
    });
  });

  it('from runConformance: roleKeys { learner: "none" }', async () => {
    const report = await runConformance({
      baseUrl: base,
      apiKey: SITE_KEY,
      roleKeys: { learner: 'none' },
      only: 'v2.auth.banned-owner',
    });
    expect(report.results.find((r) => r.id === 'v2.auth.banned-owner')).toMatchObject({
      status: 'skip',
      reason: 'not applicable: the deployment gives no keys to learner',
    });
  });

  it('a not-applicable MUST does not keep a run from passing', () => {
    const result = (over: Partial<Result>): Result => ({
      id: 'x',
      area: 'v2.auth',
      level: 'MUST',
      rules: [],
      source: 'seed 000',
      title: 't',
      status: 'pass',
      durationMs: 0,
      ...over,
    });
    const report = {
      results: [
        result({ id: 'a' }),
        result({
          id: 'v2.auth.banned-owner',
          status: 'skip',
          reason: 'not applicable: the deployment gives no keys to learner',
          optIn: '--role-key learner=none',
        }),
      ],
    } as RunReport;
    expect(outcomeOf(report)).toBe('passed');
  });
});
