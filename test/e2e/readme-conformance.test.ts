// The README's conformance block, run as a reader pastes it: the mock started as the README's line
// above it says (its admin token), the tool server beside it, then the block itself, verbatim, in
// bash. The block names 127.0.0.1:4010 and :4020, so where the machine allows it the three run in a
// network namespace of their own (`unshare -rn`): those ports are then free whatever else runs here.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const block = blocks.find((b) => b.includes('npx lmskit conformance --base-url http://127.0.0.1:4010'));
const starts = blocks.find((b) => /^npm start -- /m.test(b) && b.includes('npx lmskit mcp --http'));

/** Whether this machine lets a test make a network namespace of its own. */
function namespaces(): boolean {
  try {
    execFileSync('unshare', ['-rn', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe("README.md's conformance block", () => {
  it('is there, with the lines that start the mock and the tool server', () => {
    expect(block).toBeDefined();
    expect(starts).toBeDefined();
  });

  it('runs as pasted against the mock started as the README says, and the run passes', async () => {
    const mockArgs = /^npm start -- (.*?)\s*(#.*)?$/m.exec(starts as string)?.[1] as string;
    const mcpArgs = /^npx lmskit (mcp --http.*?)\s*(#.*)?$/m.exec(starts as string)?.[1] as string;
    const lmskit = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'lmskit.js'))}`;
    const script = [
      'set -u',
      // In a namespace of its own, loopback starts down.
      'ip link set lo up 2>/dev/null || true',
      // `npx lmskit` as in a clone of the kit: this checkout's command.
      `npx() { if [ "$1" = lmskit ]; then shift; ${lmskit} "$@"; else command npx "$@"; fi; }`,
      `${lmskit} mock ${mockArgs} > mock.out 2>&1 & MOCK=$!`,
      // Started as the mock is, not through the function above: a function run in the background is a
      // subshell whose child the `kill` at the end would miss, left serving after the test.
      `${lmskit} ${mcpArgs} > mcp.out 2>&1 & MCP=$!`,
      // Until each answers (no fixed wait): the mock's health, any answer of the tool server.
      'until curl -s -o /dev/null http://127.0.0.1:4010/__admin/health; do kill -0 $MOCK || { cat mock.out; exit 90; }; sleep 0.2; done',
      'until curl -s -o /dev/null http://127.0.0.1:4020/mcp; do kill -0 $MCP || { cat mcp.out; exit 91; }; sleep 0.2; done',
      '(',
      block as string,
      ')',
      'code=$?',
      'kill $MOCK $MCP',
      'echo "README block exit code: $code"',
      'exit $code',
    ].join('\n');
    const dir = await mkdtemp(join(tmpdir(), 'lmskit-readme-'));
    const [file, args] = namespaces() ? ['unshare', ['-rn', 'bash', '-c', script]] : ['bash', ['-c', script]];
    // Two settings the README's lines leave at their defaults, given here as variables because each
    // only makes the run wait: the mock's generation jobs take 10 to 30 s of the running clock and the
    // run waits for two of them (2 s still takes each through queued, running and completed), and 120
    // requests per key per minute make the run wait out about 40 one-second 429s (the suite's
    // own tests meet the limit: test/conformance/suite.test.ts). 45 s of waiting, 6 s of work.
    const env = { ...process.env, NO_COLOR: '1', LMSKIT_AI_SECONDS: '2', LMSKIT_RATE_LIMIT: '0' };
    const child = spawn(file, args, { cwd: dir, env });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(output).not.toMatch(/Unexpected argument|\n\s+at /);
    expect(output).toMatch(/^PASSED/m);
    expect(code, output.slice(-3000)).toBe(0);
    expect(readFileSync(join(dir, 'conformance.xml'), 'utf8')).toContain('<testsuites');
  }, 600_000);
});
