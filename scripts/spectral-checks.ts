// Part of `npm run cross-check` (and on its own: `npm ci --prefix tools/spectral` once, then
// `node --import tsx scripts/spectral-checks.ts`): Spectral, with the OWASP API Security ruleset's rules
// on the bounds of inputs (tools/spectral/ruleset.yaml), judges what each contract accepts from a
// client. Spectral reads a whole document, answers included, so each contract is first cut down to its
// requests: every operation's parameters and request body, each with its schemas written out in full
// (an answer's schema is the mock's to bound, not a client's). Prints Spectral's findings; exits 1 on any.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_NAMES, bundlePath, ROOT } from '../lib/paths.ts';

const SPECTRAL = join(
  ROOT,
  'tools',
  'spectral',
  'node_modules',
  '@stoplight',
  'spectral-cli',
  'dist',
  'index.js',
);
const RULESET = join(ROOT, 'tools', 'spectral', 'ruleset.yaml');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

// biome-ignore lint/suspicious/noExplicitAny: a contract's JSON, walked by key
type Json = any;

/** `value` with every local `$ref` replaced by what it points at (a schema met again inside itself stays a `$ref`). */
function inline(value: Json, spec: Json, within: string[] = []): Json {
  if (Array.isArray(value)) return value.map((v) => inline(v, spec, within));
  if (!value || typeof value !== 'object') return value;
  const ref = value.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (within.includes(ref)) return value;
    const target = ref
      .slice(2)
      .split('/')
      .reduce((node: Json, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
    const { $ref: _, ...siblings } = value;
    return inline({ ...target, ...siblings }, spec, [...within, ref]);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(v, spec, within)]));
}

/** The contract cut down to what a client sends: paths, their operations' parameters and bodies. */
export function requestsOf(spec: Json): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries<Json>(spec.paths ?? {})) {
    const kept: Json = {};
    if (item.parameters) kept.parameters = inline(item.parameters, spec);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      kept[method] = {
        operationId: op.operationId,
        ...(op.parameters ? { parameters: inline(op.parameters, spec) } : {}),
        ...(op.requestBody ? { requestBody: inline(op.requestBody, spec) } : {}),
        responses: { default: { description: 'Left out: only requests are judged.' } },
      };
    }
    paths[path] = kept;
  }
  return { openapi: spec.openapi, info: spec.info, paths };
}

interface Finding {
  code: string;
  message: string;
  path: (string | number)[];
}

/** Spectral's findings on one file, each named by where it is in the contract's requests. */
async function lint(file: string): Promise<string[]> {
  const child = spawn(
    process.execPath,
    [SPECTRAL, 'lint', file, '--ruleset', RULESET, '--fail-severity', 'warn', '--format', 'json', '--quiet'],
    { cwd: ROOT },
  );
  let output = '';
  let errors = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (errors += c));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  let findings: Finding[];
  try {
    findings = JSON.parse(output.slice(output.indexOf('[')));
  } catch {
    return [`Spectral exited with ${code} and no report: ${errors || output}`];
  }
  if (code !== 0 && !findings.length) return [`Spectral exited with ${code}: ${errors}`];
  return findings.map((f) => `${f.path.join(' › ')}: ${f.code}: ${f.message}`);
}

/** Runs Spectral on each API's requests; the problems, one line each, or none. */
export async function runSpectral(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'lmskit-spectral-'));
  const problems: string[] = [];
  try {
    for (const api of API_NAMES) {
      const file = join(dir, `${api}-requests.json`);
      writeFileSync(
        file,
        JSON.stringify(requestsOf(JSON.parse(readFileSync(bundlePath(api), 'utf8'))), null, 2),
      );
      const findings = await lint(file);
      console.log(
        `${api}: ${findings.length ? `${findings.length} finding(s)` : 'every request string and integer is bounded'}`,
      );
      problems.push(...findings.map((f) => `${api}: ${f}`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await runSpectral();
  for (const p of problems) console.log(`✗ ${p}`);
  process.exit(problems.length ? 1 : 0);
}
