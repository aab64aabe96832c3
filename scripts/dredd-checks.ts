// Part of `npm run cross-check`: Dredd 14.1.0 (its last release, installed apart from the kit in
// tools/dredd/) runs the three contracts against a fresh `lmskit mock` process, as a Dredd user would:
// each contract exported with `lmskit export --for dredd` (lib/dredd-export.ts), Dredd given
// tools/dredd/hooks.js, the demo state restored before each API. Any failing or erroring transaction
// fails the cross-check; the skips are the operations the export marks `x-dredd-skipped`, each with
// its reason (docs/conformance.md, "With Dredd").
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { DreddApi } from '../lib/dredd-export.ts';
import { freePort } from '../lib/net.ts';
import { ROOT } from '../lib/paths.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';

const DREDD = join(ROOT, 'tools', 'dredd', 'node_modules', 'dredd', 'bin', 'dredd');
const HOOKS = join(ROOT, 'tools', 'dredd', 'hooks.js');
const ADMIN_TOKEN = 'dredd-cross-check';
const PREFIX: Record<DreddApi, string> = { v1: '/openapi/v1', v2: '/api/v2', admin: '/__admin' };

/** Dredd's count of one run (its last `complete:` line). */
export interface DreddCount {
  api: DreddApi;
  passing: number;
  failing: number;
  errors: number;
  skipped: number;
  total: number;
  /** The reasons hooks.js logged for its skips. */
  skips: string[];
}

interface Run {
  code: number | null;
  output: string;
}

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

function startMock(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'lmskit.js'),
      'mock',
      '--port',
      String(port),
      '--admin-token',
      ADMIN_TOKEN,
      '--seed',
      'demo',
    ],
    // In memory, whatever the environment says (an empty variable is an unset one).
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LMSKIT_STATE_FILE: '' } },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (/ready/.test(output)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`lmskit mock exited with ${code}:\n${output}`)));
  });
}

/** The counts of Dredd's summary line, e.g. `complete: 25 passing, 0 failing, 0 errors, 2 skipped, 27 total`. */
export function dreddCount(api: DreddApi, output: string): DreddCount | null {
  const text = stripVTControlCharacters(output);
  const line = [
    ...text.matchAll(/complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/g),
  ].at(-1);
  if (!line) return null;
  const [passing, failing, errors, skipped, total] = line.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const skips = [...text.matchAll(/^hook: (skip .*)$/gm)].map((m) => m[1] as string);
  return { api, passing, failing, errors, skipped, total, skips };
}

/** Runs Dredd on v1, v2 and admin; answers the problems found (none: Dredd passes all three) and the counts. */
export async function runDredd(): Promise<{ problems: string[]; counts: DreddCount[] }> {
  if (!existsSync(DREDD))
    return { problems: ['Dredd is not installed: run `npm ci --prefix tools/dredd`'], counts: [] };
  const problems: string[] = [];
  const counts: DreddCount[] = [];
  const port = await freePort();
  const mock = await startMock(port);
  const base = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'lmskit-dredd-'));
  try {
    for (const api of ['v1', 'v2', 'admin'] as const) {
      const file = join(dir, `${api}.dredd.json`);
      const exported = await run([
        join(ROOT, 'bin', 'lmskit.js'),
        'export',
        '--for',
        'dredd',
        '--api',
        api,
        '--out',
        file,
      ]);
      if (exported.code !== 0) {
        problems.push(
          `lmskit export --for dredd --api ${api} exited with ${exported.code}: ${exported.output}`,
        );
        continue;
      }
      const reset = await fetch(`${base}/__admin/reset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ seed: 'demo' }),
      });
      if (!reset.ok) problems.push(`resetting the mock before ${api} answered ${reset.status}`);
      // Parser warnings (keywords Dredd 14's OpenAPI 3 reader does not support) are left out of the
      // log; an error in reading the export stops Dredd and fails the step.
      const dredd = await run(
        [DREDD, file, `${base}${PREFIX[api]}`, '--hookfiles', HOOKS, '--loglevel', 'error', '--no-color'],
        // The demo keys (not keys of a deployment the environment may name for other runs) and the
        // admin token; winston 2 (Dredd's logger) warns on Node ≥ 14 about a circular require, which
        // says nothing about the run.
        {
          LMSKIT_API_KEY: DEMO_SITE_API_KEY,
          LMSKIT_MCP_KEY: demoMcpKey('write'),
          LMSKIT_ADMIN_TOKEN: ADMIN_TOKEN,
          NODE_NO_WARNINGS: '1',
        },
      );
      const count = dreddCount(api, dredd.output);
      const ok = dredd.code === 0 && count && count.failing === 0 && count.errors === 0 && count.passing > 0;
      console.log(
        count
          ? `  ${ok ? '✓' : '✗'} ${api}: ${count.total} transactions, ${count.passing} passing, ${count.failing} failing, ${count.errors} errors, ${count.skipped} skipped`
          : `  ✗ ${api}: no summary from Dredd`,
      );
      for (const skip of count?.skips ?? []) console.log(`      ${skip}`);
      if (count) counts.push(count);
      if (!ok)
        problems.push(
          `Dredd on ${api} (exit ${dredd.code}):\n${dredd.output
            .split('\n')
            .filter((l) => !/^pass: /.test(l))
            .join('\n')}`,
        );
    }
  } finally {
    mock.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  return { problems, counts };
}
