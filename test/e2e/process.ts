// Starts the real `lmskit` command as a user would, and waits until it is ready (or until it exits).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../lib/net.ts';
import { ROOT } from '../../lib/paths.ts';

export { freePort };

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export interface SpawnOptions {
  /** Run as this user and group (a root test that needs permissions to apply). */
  uid?: number;
  gid?: number;
  /** The most file descriptors the process may open (`ulimit -n`). */
  fileLimit?: number;
  /** Kill the process (SIGKILL) if it is still running after this long: a test of a refusal that did not come ends, and leaves no process behind. */
  killAfterMs?: number;
}

function spawnLmskit(args: string[], env: NodeJS.ProcessEnv, options: SpawnOptions): RunningProcess {
  const command = [process.execPath, join(ROOT, 'bin', 'lmskit.js'), ...args];
  const [file, argv] =
    options.fileLimit === undefined
      ? [command[0] as string, command.slice(1)]
      : ['/bin/sh', ['-c', `ulimit -n ${options.fileLimit} && exec "$@"`, 'sh', ...command]];
  const child = spawn(file, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
  });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  if (options.killAfterMs !== undefined) {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
    void exited.then(() => clearTimeout(timer));
  }
  return { child, output: () => output, exited };
}

/** Runs `lmskit <args>` and resolves once `ready` appears in its output (or rejects if it exits first). */
export async function startLmskit(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
  options: SpawnOptions = {},
): Promise<RunningProcess> {
  const running = spawnLmskit(args, env, options);
  const { child, output, exited } = running;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after 90 s:\n${output()}`)), 90_000);
    const check = () => {
      if (ready.test(output())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready:\n${output()}`));
    });
  });
  return running;
}

/** Runs `lmskit <args>` to its end: its exit code and everything it printed. */
export async function runLmskit(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: SpawnOptions = {},
): Promise<{ code: number | null; output: string }> {
  const running = spawnLmskit(args, env, options);
  const code = await running.exited;
  return { code, output: running.output() };
}

/** Requests to one API of a running mock: JSON in, status, JSON body and headers out. */
export function client(base: string, headers: Record<string, string>) {
  return async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: { ...headers, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
    const text = await response.text();
    const body: any = text ? JSON.parse(text) : undefined;
    return { status: response.status, body, headers: response.headers };
  };
}
