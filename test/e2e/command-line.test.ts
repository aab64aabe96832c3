// The command line of `lmskit mock` and `lmskit mcp` through the real processes (docs/mock.md, Options;
// docs/mcp.md): an empty variable is an unset one, so it gives the default and never something wider
// or weaker (every interface, no rate limit, a random port); an empty flag, a malformed number and an
// admin token too short or with whitespace are one sentence and exit code 2; a `--seed-scale` that
// cannot fit in memory is refused before anything is built.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';
import { demoMcpKey } from '../../mock/seed/demo.ts';
import { burstProblems, sendUntilRefused } from '../rate-limit.ts';
import { freePort, type RunningProcess, runLmskit, startLmskit } from './process.ts';

const running: RunningProcess[] = [];
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
});

/** Runs `lmskit <args>` to its end; one that has not ended after 30 s (a refusal that did not come) is killed. */
const refusal = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runLmskit(args, env, { killAfterMs: 30_000 });

/** Every variable `lmskit mock` reads, each set empty. */
const EMPTY_MOCK_VARIABLES = {
  LMSKIT_PORT: '',
  LMSKIT_HOST: '',
  LMSKIT_ADMIN_TOKEN: '',
  LMSKIT_STATE_FILE: '',
  LMSKIT_SEED: '',
  LMSKIT_FIXTURES: '',
  LMSKIT_AI_SECONDS: '',
  LMSKIT_RATE_LIMIT: '',
  LMSKIT_TRUST_PROXY: '',
  LMSKIT_WEBHOOK_TIMEOUT: '',
  LMSKIT_JOURNAL_SIZE: '',
  LMSKIT_COMPACT_EVERY: '',
};

/** An address of this machine other than loopback, if it has one. */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The one line a refused command line prints before its usage. */
const firstLine = (output: string) => output.trim().split('\n')[0] as string;

describe('an empty LMSKIT_* variable is an unset one: the default, never wider or weaker (docs/mock.md, Options)', () => {
  it('lmskit mock with every variable empty starts with the defaults: loopback only, 120 requests per key per minute, the demo seed, in memory', async () => {
    const port = await freePort();
    const p = await startLmskit(['mock', '--port', String(port)], /try: curl/, EMPTY_MOCK_VARIABLES);
    running.push(p);
    const banner = p.output();
    expect(banner).toContain(`http://127.0.0.1:${port}/openapi/v1`);
    expect(banner).toMatch(/admin token: Authorization: Bearer [0-9a-f]{32}$/m);
    expect(banner).toContain('state: in memory');
    expect(banner).toContain('tenant demo: X-API-KEY');
    if (otherAddress) expect(await reachable(otherAddress, port)).toBe(false);
    expect(await reachable('127.0.0.1', port)).toBe(true);

    // The rate limit is the default 120 per key per minute, not off: judged by the bucket's rule,
    // which holds however long the requests take (test/rate-limit.ts).
    const run = await sendUntilRefused(async () => {
      const answer = await fetch(`http://127.0.0.1:${port}/api/v2/mcp/capabilities`, {
        headers: { 'x-mcp-key': demoMcpKey('read') },
      });
      await answer.arrayBuffer();
      return answer.status;
    }, 400);
    expect(burstProblems(run, 120)).toEqual([]);
  });

  it('lmskit mock with LMSKIT_PORT empty takes port 4010, not a random one', async () => {
    // Whether 4010 is free here or not, the mock names it: ready on it, or unable to listen on it.
    const p = await startLmskit(['mock'], /try: curl|cannot listen/, EMPTY_MOCK_VARIABLES).catch(
      (error: Error) => ({ output: () => error.message, child: null }),
    );
    if (p.child) running.push(p as RunningProcess);
    expect(p.output()).toMatch(/127\.0\.0\.1:4010/);
  });

  it('lmskit mcp --http with LMSKIT_MCP_PORT and LMSKIT_BASE_URL empty takes port 4020 and the default backend', async () => {
    const p = await startLmskit(['mcp', '--http'], /on http|cannot listen/, {
      LMSKIT_MCP_PORT: '',
      LMSKIT_BASE_URL: '',
      LMSKIT_MCP_KEY: '',
    }).catch((error: Error) => ({ output: () => error.message, child: null }));
    if (p.child) running.push(p as RunningProcess);
    expect(p.output()).toMatch(/127\.0\.0\.1:4020/);
    if (p.child) expect(p.output()).toContain('backend http://127.0.0.1:4010/api/v2');
  });

  it('lmskit mcp over stdio with LMSKIT_MCP_KEY empty has no key: one sentence and exit code 2', async () => {
    const { code, output } = await refusal(['mcp'], { LMSKIT_MCP_KEY: '' });
    expect(code).toBe(2);
    expect(firstLine(output)).toBe('lmskit mcp: no MCP key; pass --key or set LMSKIT_MCP_KEY');
  });

  it.each([
    ['an empty --host', ['--host', ''], '--host takes a value; it is empty'],
    ['an empty --rate-limit', ['--rate-limit', ''], '--rate-limit takes a value; it is empty'],
    ['an empty --port', ['--port', ''], '--port takes a value; it is empty'],
    ['an empty --state-file', ['--state-file', ''], '--state-file takes a value; it is empty'],
    ['a blank --rate-limit', ['--rate-limit', ' '], '--rate-limit takes a value; it is blank'],
    ['a blank --port', ['--port', ' '], '--port takes a value; it is blank'],
    [
      'a blank --state-file (a file named by a space)',
      ['--state-file', ' '],
      '--state-file takes a value; it is blank',
    ],
  ])('lmskit mock refuses %s in one sentence with exit code 2', async (_, flags, sentence) => {
    const { code, output } = await refusal(['mock', ...flags]);
    expect(code).toBe(2);
    expect(firstLine(output)).toBe(sentence);
  });

  it.each([
    [
      'an empty --upload-root (it meant the current directory)',
      ['--http', '--upload-root', ''],
      '--upload-root takes a value; it is empty',
    ],
    ['a blank --base-url', ['--base-url', ' '], '--base-url takes a value; it is blank'],
  ])('lmskit mcp refuses %s in one sentence with exit code 2', async (_, flags, sentence) => {
    const { code, output } = await refusal(['mcp', '--key', 'lmcp_x', ...flags]);
    expect(code).toBe(2);
    expect(firstLine(output)).toBe(sentence);
  });

  it('a blank LMSKIT_STATE_FILE is refused like the flag, and makes no file', async () => {
    const { code, output } = await refusal(['mock', '--port', String(await freePort())], {
      LMSKIT_STATE_FILE: ' ',
    });
    expect(code).toBe(2);
    expect(firstLine(output)).toBe('--state-file takes a value; it is blank');
    expect(existsSync(join(ROOT, ' '))).toBe(false);
  });

  it('a blank variable is a value, refused like the flag: LMSKIT_RATE_LIMIT=" " is exit code 2, not "off"', async () => {
    const { code, output } = await refusal(['mock', '--port', String(await freePort())], {
      LMSKIT_RATE_LIMIT: ' ',
    });
    expect(code).toBe(2);
    expect(firstLine(output)).toBe('--rate-limit takes a value; it is blank');
  });
});

describe('an admin token that could be guessed or never matched is refused (docs/mock.md, Options: --admin-token)', () => {
  const SENTENCE =
    /^--admin-token takes 16 to 1024 printable ASCII characters without spaces \(a random one is made when it is not given\)/;
  it.each([
    ['a one-character --admin-token', ['--admin-token', 'x'], {}],
    ['a 15-character --admin-token', ['--admin-token', 'abcdefghijklmno'], {}],
    ['an --admin-token with a space', ['--admin-token', 'long enough token with spaces'], {}],
    ['an --admin-token with a tab', ['--admin-token', 'long-enough-token\twith-a-tab'], {}],
    ['a short LMSKIT_ADMIN_TOKEN', [], { LMSKIT_ADMIN_TOKEN: 'short' }],
    ['an LMSKIT_ADMIN_TOKEN with a space', [], { LMSKIT_ADMIN_TOKEN: 'long enough but spaced' }],
  ])('%s: one sentence, exit code 2', async (_, flags, env) => {
    const { code, output } = await refusal(['mock', '--port', String(await freePort()), ...flags], env);
    expect(code).toBe(2);
    expect(firstLine(output)).toMatch(SENTENCE);
  });

  it('a token of 16 printable characters is taken, and matches', async () => {
    const port = await freePort();
    const token = 'sixteen-chars-ok';
    const p = await startLmskit(['mock', '--port', String(port), '--admin-token', token], /try: curl/);
    running.push(p);
    const answer = await fetch(`http://127.0.0.1:${port}/__admin/faults`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);
  });
});

describe('a --seed-scale beyond what memory can hold is refused before it is built (docs/mock.md, Options: --seed-scale)', () => {
  it.each([
    [
      'ten million courses (their records overflow the JavaScript heap)',
      'users=1000,courses=10000000,assignments=1000',
    ],
    ['a hundred million users (over what the indexes hold)', 'users=100000000,courses=10,assignments=10'],
    ['ten billion assignments', 'users=1000000,courses=10000,assignments=10000000000'],
  ])('%s: one sentence, exit code 2, no RangeError', async (_, spec) => {
    const { code, output } = await refusal([
      'mock',
      '--port',
      String(await freePort()),
      '--seed-scale',
      spec,
    ]);
    expect(code).toBe(2);
    expect(firstLine(output)).toMatch(/^--seed-scale .* (cannot|does not) .*\.$/);
    expect(output).not.toMatch(/RangeError|FATAL|heap out of memory|^\s+at /m);
  });
});
