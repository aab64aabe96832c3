// The process a user stops is the one that serves (bin/lmskit.js): `npx lmskit mcp` and `npm start`
// run lmskit as a child of npm, which passes on no signal it is sent, so stopping npm's process left
// lmskit holding the port. Started by npm so (npm_command exec or start), lmskit stops once the process
// that started it is gone; started any other way it outlives its parent, as a server should. npm's
// part is played by a shell that starts lmskit in the background and is then killed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';
import { freePort } from './process.ts';

const answers = (port: number) =>
  fetch(`http://127.0.0.1:${port}/mcp`, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );

/** Polls until `answers(port)` is `want`, for at most `ms`; whether it got there. */
async function until(port: number, want: boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if ((await answers(port)) === want) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** `lmskit mcp --http` started in the background by a shell, then the shell killed; lmskit's pid. */
async function orphan(port: number, npmCommand: string | undefined): Promise<number> {
  const env = { ...process.env, npm_command: npmCommand };
  if (npmCommand === undefined) delete env.npm_command;
  const shell = spawn(
    '/bin/sh',
    [
      '-c',
      '"$0" "$1" mcp --http --port "$2" >/dev/null 2>&1 & echo $!; wait',
      process.execPath,
      join(ROOT, 'bin', 'lmskit.js'),
      String(port),
    ],
    { env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const pid = await new Promise<number>((resolve) =>
    shell.stdout.once('data', (c) => resolve(Number(String(c).trim()))),
  );
  expect(await until(port, true, 60_000)).toBe(true);
  shell.kill('SIGKILL');
  return pid;
}

describe('stopping the process that started lmskit', () => {
  it.each(['exec', 'start'])(
    'started by npm (npm_command=%s): lmskit stops and frees the port',
    async (command) => {
      const port = await freePort();
      const pid = await orphan(port, command);
      try {
        expect(await until(port, false, 15_000)).toBe(true);
      } finally {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
    },
  );

  it('started another way (nohup, a service manager): lmskit keeps serving', async () => {
    const port = await freePort();
    const pid = await orphan(port, undefined);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await answers(port)).toBe(true);
    process.kill(pid, 'SIGTERM');
  });
});
