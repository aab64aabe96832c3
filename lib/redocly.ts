// Runs the Redocly CLI (its 2.x package ships no programmatic API) with the project's redocly.yaml.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ApiName, ROOT } from './paths.ts';

const run = promisify(execFile);
const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

export async function redocly(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
  }
}

export interface LintProblem {
  api: ApiName;
  ruleId: string;
  severity: string;
  message: string;
  where: string;
}

/** Every error and warning Redocly reports for one API (an empty list means clean). */
export async function lintApi(api: ApiName): Promise<LintProblem[]> {
  const { stdout, stderr } = await redocly(['lint', api, '--format=json']);
  let report: {
    problems: {
      ruleId: string;
      severity: string;
      message: string;
      location: { source: { ref: string }; pointer: string }[];
    }[];
  };
  try {
    report = JSON.parse(stdout);
  } catch {
    return [
      {
        api,
        ruleId: 'redocly',
        severity: 'error',
        message: `redocly lint failed: ${stderr.trim()}`,
        where: api,
      },
    ];
  }
  return report.problems.map((p) => ({
    api,
    ruleId: p.ruleId,
    severity: p.severity,
    message: p.message,
    where: p.location.map((l) => `${l.source.ref}${l.pointer}`).join(', '),
  }));
}

/** The API bundled into one document (components gathered, references kept internal). */
export async function bundleApi(api: ApiName): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'lmskit-bundle-'));
  try {
    const out = join(dir, `${api}.json`);
    const { code, stderr } = await redocly(['bundle', api, '--ext', 'json', '-o', out]);
    if (code !== 0) throw new Error(`redocly bundle ${api} failed: ${stderr.trim()}`);
    return JSON.parse(await readFile(out, 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
