// `lmskit conformance` as a process, for the tests that judge what the command prints and exits with.
// Asynchronous: the mock under test answers from the test's own process while the command runs.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../lib/paths.ts';

export interface CommandRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `lmskit conformance --base-url BASE ...args` without colours; a hung run is stopped at 60 s. */
export const conformanceCommand = (base: string, args: string[]) =>
  new Promise<CommandRun>((resolve) => {
    const child = execFile(
      process.execPath,
      [join(ROOT, 'bin', 'lmskit.js'), 'conformance', '--base-url', base, ...args],
      { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (_error, stdout, stderr) => resolve({ status: child.exitCode, stdout, stderr }),
    );
  });
