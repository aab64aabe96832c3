// The docs site kept between starts (docs/mock.md, "/docs/"): a mock started at a terminal builds it in
// the background and says when it is ready; a later start serves the kept site and its banner names the
// address alone; a mock whose output is not a terminal (a test's, a script's) builds nothing until asked.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';
import { freePort, type RunningProcess, startLmskit } from './process.ts';

const dir = mkdtempSync(join(tmpdir(), 'lmskit-docs-kept-'));
const kept = join(dir, 'kept');
const children: ChildProcess[] = [];
const processes: RunningProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.pid) process.kill(-child.pid, 'SIGKILL');
  for (const p of processes) p.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `lmskit mock` with its output on a terminal: util-linux `script` gives it one. */
function startAtTerminal(port: number, env: NodeJS.ProcessEnv) {
  const command = `"${process.execPath}" "${join(ROOT, 'bin', 'lmskit.js')}" mock --port ${port}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that the test stops `script` and the mock together.
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (c) => (output += String(c).replaceAll('\r', '')));
  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => pattern.test(output) && resolve(output);
      child.stdout?.on('data', check);
      child.on('exit', () => reject(new Error(`exited before printing ${pattern}:\n${output}`)));
      check();
    });
  return { printed };
}

describe('the docs site kept between starts (docs/mock.md, /docs/)', () => {
  it('at a terminal, with no site kept, the mock builds it in the background and says when it is ready', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const mock = startAtTerminal(port, { LMSKIT_DOCS_CACHE: kept });
    const banner = await mock.printed(/^ {2}state: /m);
    expect(banner).toContain(
      `  docs: ${base}/docs/ (being built in the background: about 10 seconds, once until the contracts or guides change)\n`,
    );
    await mock.printed(new RegExp(`^docs: built, ${base}/docs/ is ready$`, 'm'));
    expect(readdirSync(kept)).toEqual([expect.stringMatching(/^[0-9a-f]{16}$/)]);
    const home = await fetch(`${base}/docs/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<header class="lmskit-header">');
  });

  it('a later start serves the kept site: its banner names the address alone', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const p = await startLmskit(['mock', '--port', String(port)], /^ {2}state: /m, {
      LMSKIT_DOCS_CACHE: kept,
    });
    processes.push(p);
    expect(p.output()).toContain(`  docs: ${base}/docs/\n`);
    const reference = await fetch(`${base}/docs/v1.html`);
    expect(reference.status).toBe(200);
    // Served for this mock's address, though built by another.
    expect(await reference.text()).toContain(`${base}/openapi/v1/courses`);
  });

  it('with no site kept and no terminal, the mock builds nothing until the first visit', async () => {
    const empty = join(dir, 'empty');
    const port = await freePort();
    const p = await startLmskit(['mock', '--port', String(port)], /^ {2}state: /m, {
      LMSKIT_DOCS_CACHE: empty,
    });
    processes.push(p);
    expect(p.output()).toContain(
      `  docs: http://127.0.0.1:${port}/docs/ (built on the first visit: about 10 seconds, once until the contracts or guides change)\n`,
    );
    expect(readdirSync(dir)).not.toContain('empty');
  });
});
