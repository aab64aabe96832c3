// Starts the real `lmskit` command as a user would, and waits until it is ready.
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

/** Runs `lmskit <args>` and resolves once `ready` appears in its output (or rejects if it exits first). */
export async function startLmskit(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'lmskit.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c) => (output += c));
  child.stderr?.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after 30 s:\n${output}`)), 30_000);
    const check = () => {
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready:\n${output}`));
    });
  });
  return { child, output: () => output, exited };
}
