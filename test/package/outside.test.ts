// The kit as an integrator gets it (docs/guide.md, "Use it from your tests"): `npm pack`, the tarball
// installed into a new, unrelated project, and there the guide's own example run by vitest, the types
// checked by tsc, and `npx lmskit mock|mcp|conformance` started. Also what the tarball holds: what
// runs and nothing else, every import of it resolvable inside it, its dependencies exactly the
// packages it imports. Slow (a pack, an install from the npm cache or registry): it is the `package`
// project (`npm run test:package`), which CI runs as a step of its own. The guide's five test files
// run in one vitest command, each test reading its file's verdict from that run's JSON report.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';
import { toolNames } from '../../lib/tool-schemas.ts';

const run = promisify(execFile);

/**
 * How long each step may take before it counts as hung, by what it waits for: a pack builds the
 * declarations with tsc; an install unpacks the kit and vitest from npm's cache (the registry only
 * for what the cache lacks); a vitest or tsc run in the integrator's project compiles and runs it. Set
 * for a 2-core machine with two other CPU-bound processes (about three times a quiet machine's), a
 * guard against a hang and never a measure of speed: each command is killed at its budget, and each
 * hook and test waits for the sum of its commands' budgets.
 */
const BUDGET_MS = { pack: 300_000, install: 300_000, vitest: 240_000, tsc: 240_000, command: 120_000 };
const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));

/** An example file of the guide, verbatim: the `lang` block that starts `// <file>` (`# <file>` in YAML). */
async function guideExample(file = 'mock.test.ts', lang = 'ts', comment = '//'): Promise<string> {
  const guide = await readFile(join(ROOT, 'docs', 'guide.md'), 'utf8');
  const start = guide.indexOf(`\`\`\`${lang}\n${comment} ${file}`);
  if (start < 0) throw new Error(`docs/guide.md has no \`\`\`${lang} block starting with ${comment} ${file}`);
  const from = start + `\`\`\`${lang}\n`.length;
  return guide.slice(from, guide.indexOf('```', from));
}

/** The README's example ("In your project"): type-checked with the rest of the project's code. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## In your project'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no ```ts block under "In your project"');
  return `${block}export {};\n`;
}

/** Client code an integrator types with the package's types; each @ts-expect-error proves a type is not `any`. */
const TYPES_TS = `import { type ConformanceReport, type Mock, runConformance, startMock } from 'lmskit';
import type { components as Admin } from 'lmskit/types/admin';
import type { components, operations } from 'lmskit/types/v1';
import type { operations as V2 } from 'lmskit/types/v2';
import type { CreateCourseFromPromptInput, FindUserInput, FindUserOutput } from 'lmskit/types/tools';

export async function typed(): Promise<void> {
  const mock: Mock = await startMock({ seed: 'empty', clock: 'running', rateLimit: 0 });
  const user: components['schemas']['User'] | undefined = undefined;
  const create: operations['createUser']['requestBody']['content']['application/json'] = {
    name: 'A', email: 'a@example.com', password: 'secret123', roleAlias: 'learner',
  };
  const ban: V2['banUser']['requestBody'] = { content: { 'application/json': { userId: 1 } } };
  const tenant: Admin['schemas']['Tenant']['mcpAccess'] = 'read';
  const find: FindUserInput = { query: 'ada', limit: 5 };
  const found: FindUserOutput | undefined = undefined;
  const prompt: CreateCourseFromPromptInput = { prompt: 'Fire safety' };
  // @ts-expect-error: not an operation of the admin API
  await mock.admin.GET('/no-such-path');
  // @ts-expect-error: mcpAccess is none, read or full
  await mock.admin.PATCH('/tenants/{tenantId}', { params: { path: { tenantId: 'demo' } }, body: { mcpAccess: 'all' } });
  // @ts-expect-error: query is required
  const missing: FindUserInput = { limit: 5 };
  // @ts-expect-error: a seed the kit does not have
  await startMock({ seed: 'large' });
  const report: ConformanceReport = await runConformance({ baseUrl: mock.url, only: 'v1.courses.*' });
  const outcome: 'passed' | 'failed' | 'incomplete' = report.outcome;
  console.log(user, create, ban, tenant, find, found, prompt, missing, outcome);
  await mock.stop();
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  include: ['*.ts'],
};

/** The shipped code files (not the declarations), without their comment lines. */
async function shippedCode(paths: string[]): Promise<[string, string][]> {
  const code = paths.filter((p) => /\.(ts|tsx|js)$/.test(p) && !p.startsWith('dist/'));
  return Promise.all(
    code.map(async (p) => [
      p,
      (await readFile(join(ROOT, p), 'utf8')).replace(/^\s*(\/\/|\*|\/\*).*$/gm, ''),
    ]),
  );
}

let dir: string;
let project: string;
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lmskit-outside-'));
  project = join(dir, 'integrator');
  // `npm pack` runs `prepack`, which builds the declarations into dist/.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
    timeout: BUDGET_MS.pack,
  });
  packed = JSON.parse(stdout.slice(stdout.indexOf('[')))[0];
  await mkdir(project);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'integrator', private: true, type: 'module' }, null, 2),
  );
  await writeFile(join(project, 'mock.test.ts'), await guideExample());
  await writeFile(join(project, 'conformance.test.ts'), await guideExample('conformance.test.ts'));
  await writeFile(join(project, 'agent.test.ts'), await guideExample('agent.test.ts'));
  await writeFile(join(project, 'fixtures.test.ts'), await guideExample('fixtures.test.ts'));
  await writeFile(join(project, 'integration.test.ts'), await guideExample('integration.test.ts'));
  await mkdir(join(project, 'test'));
  await writeFile(join(project, 'test', 'sales.yaml'), await guideExample('test/sales.yaml', 'yaml', '#'));
  await writeFile(join(project, 'types.ts'), TYPES_TS);
  await writeFile(join(project, 'readme.ts'), await readmeExample());
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  // The same vitest and TypeScript as the kit's own; from npm's cache when it has them.
  await run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      join(dir, packed.filename),
      `vitest@${manifest.devDependencies.vitest}`,
      `typescript@${manifest.devDependencies.typescript}`,
    ],
    { cwd: project, maxBuffer: 16 * 1024 * 1024, timeout: BUDGET_MS.install },
  );
}, BUDGET_MS.pack + BUDGET_MS.install);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** `npx …` in the integrator's project, killed after `budget` ms: exit code and everything printed. */
async function npx(args: string[], budget = BUDGET_MS.command): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('npx', args, {
      cwd: project,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      maxBuffer: 16 * 1024 * 1024,
      timeout: budget,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Starts the installed `lmskit` command and resolves with the first match of `ready` in its output. */
function startCommand(args: string[], ready: RegExp, stdin = false) {
  // node_modules/.bin/lmskit is what `npx lmskit` runs; started directly so a signal reaches it.
  const child = spawn(join(project, 'node_modules', '.bin', 'lmskit'), args, {
    cwd: project,
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const check = () => {
      const m = ready.exec(output);
      if (m) resolve(m);
    };
    child.stdout?.on('data', (c) => {
      output += c;
      check();
    });
    child.stderr?.on('data', (c) => {
      output += c;
    });
    child.on('exit', (code) => reject(new Error(`lmskit ${args[0]} exited with ${code}:\n${output}`)));
  });
  return { child, matched, output: () => output };
}

describe('the tarball', () => {
  const paths = () => packed.files.map((f) => f.path);

  it('holds what runs and the declarations, and no tests, benchmark, scripts or docs', () => {
    expect(paths()).toEqual(
      expect.arrayContaining([
        'index.js',
        'bin/lmskit.js',
        'package/index.ts',
        'mock/main.ts',
        'mcp-server/main.ts',
        'conformance/main.ts',
        'generated/openapi/v1.json',
        'mcp-schema/absent.json',
        'console/index.html',
        'console/src/main.tsx',
        'dist/package/index.d.ts',
        ...['v1', 'v2', 'admin', 'tools'].map((t) => `dist/types/${t}.d.ts`),
      ]),
    );
    const unwanted = paths().filter((p) =>
      /(\.test\.ts$|^test\/|^bench\/|^scripts\/|^docs\/|^tools\/|^arazzo\/|node_modules\/)/.test(p),
    );
    expect(unwanted).toEqual([]);
    // Packed size stays that of sources and contracts (about 0.35 MB); a docs site or a dependency
    // slipping in would be several.
    expect(packed.size).toBeLessThan(1_000_000);
  });

  it('resolves every relative import of its code inside itself', async () => {
    const files = new Set(paths());
    const missing: string[] = [];
    for (const [file, text] of await shippedCode(paths())) {
      for (const [, spec] of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = normalize(join(dirname(file), spec as string));
        if (!files.has(target)) missing.push(`${file} → ${spec}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares as dependencies exactly the packages its code imports (zod: the MCP SDK’s peer)', async () => {
    const imported = new Set<string>();
    for (const [, text] of await shippedCode(paths())) {
      for (const [, spec] of text.matchAll(/(?:from|import\()\s*'([^.'][^']*)'/g)) {
        if (spec?.startsWith('node:')) continue;
        const parts = (spec as string).split('/');
        imported.add(spec?.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string));
      }
    }
    imported.add('zod');
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies).sort());
  });
});

describe('in an unrelated project', () => {
  /**
   * The guide's test files, each with the number of its tests, run by one vitest command in the
   * integrator's project (one start of vitest and one transform of the kit instead of five; each file
   * still runs alone in its own worker, as vitest isolates files). Its JSON report gives each file's
   * verdict to the test that names it.
   */
  const GUIDE_FILES = {
    'mock.test.ts': 2,
    'agent.test.ts': 2,
    'fixtures.test.ts': 1,
    'integration.test.ts': 4,
    'conformance.test.ts': 1,
  } as const;
  let guideRun: {
    code: number;
    output: string;
    files: Map<string, { status: string; passed: number; total: number }>;
  };

  beforeAll(async () => {
    const report = join(dir, 'guide-report.json');
    const { code, output } = await npx(
      [
        'vitest',
        'run',
        ...Object.keys(GUIDE_FILES),
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ],
      2 * BUDGET_MS.vitest,
    );
    const files = new Map<string, { status: string; passed: number; total: number }>();
    try {
      const json = JSON.parse(await readFile(report, 'utf8')) as {
        testResults: { name: string; status: string; assertionResults: { status: string }[] }[];
      };
      for (const t of json.testResults)
        files.set(t.name.slice(t.name.lastIndexOf('/') + 1), {
          status: t.status,
          passed: t.assertionResults.filter((a) => a.status === 'passed').length,
          total: t.assertionResults.length,
        });
    } catch {
      // No report: each test below fails, naming the command's output.
    }
    guideRun = { code, output, files };
  }, 2 * BUDGET_MS.vitest);

  /** The guide file's verdict in the one vitest run: every one of its `count` tests passed. */
  const expectGuideFilePassed = (file: keyof typeof GUIDE_FILES) => {
    const verdict = guideRun.files.get(file);
    expect(verdict, `${file} not in the report:\n${guideRun.output}`).toBeDefined();
    expect(verdict, guideRun.output).toEqual({
      status: 'passed',
      passed: GUIDE_FILES[file],
      total: GUIDE_FILES[file],
    });
  };

  it("runs the guide's example with vitest: a mock per suite, a user, its webhook event, a read-only licence", () => {
    expectGuideFilePassed('mock.test.ts');
    // The command as a whole: vitest exits 0 only when every file of the run passed.
    expect(guideRun.code, guideRun.output).toBe(0);
  });

  it("runs the guide's agent example: tools through mock.mcpClient, and what the platform received", () => {
    expectGuideFilePassed('agent.test.ts');
  });

  it("runs the guide's fixtures example: a mock from the test's YAML file, loaded again after a reset", () => {
    expectGuideFilePassed('fixtures.test.ts');
  });

  it("runs the guide's all-in-one file: fixtures, an agent's write and what the platform received, a retried 429, a reset, the whole suite passed", () => {
    expectGuideFilePassed('integration.test.ts');
  });

  it("runs the guide's conformance example: a mock and the tool server in-process, the whole suite passed", () => {
    expectGuideFilePassed('conformance.test.ts');
  });

  it.each([
    ['nodenext', []],
    ['bundler', ['--module', 'esnext', '--moduleResolution', 'bundler']],
  ])(
    'type-checks its code and the README example with tsc, moduleResolution %s',
    async (_name, flags) => {
      const { code, output } = await npx(['tsc', '-p', '.', ...flags], BUDGET_MS.tsc);
      expect(output.split('\n').filter((line) => line.includes('error'))).toEqual([]);
      expect(code).toBe(0);
    },
    BUDGET_MS.tsc,
  );

  it(
    'runs npx lmskit mock, mcp and conformance; says the clone-only commands are not there',
    async () => {
      const mock = startCommand(
        ['mock', '--port', '0'],
        /Integration REST API \(v1\)\s+(http:\/\/\S+)\/openapi\/v1/,
      );
      const base = (await mock.matched)[1] as string;
      await expect.poll(() => mock.output()).toMatch(/try: curl/);
      expect(mock.output()).toContain('docs: not served by the installed package');
      const key = /MCP key \(read\+write, ada\): X-MCP-Key (\S+)/.exec(mock.output())?.[1] as string;
      const courses = await fetch(`${base}/openapi/v1/courses`, {
        headers: { 'x-api-key': 'demo_site_key_4f1c9a7e2b6d8053' },
      });
      expect(courses.status).toBe(200);
      // The console (docs/console.md) is bundled from the package's own sources on the first visit.
      const link = /console: (\S+)/.exec(mock.output())?.[1] as string;
      expect(link).toContain(`${base}/console/#token=`);
      expect((await fetch(`${base}/console/`)).status).toBe(200);
      const script = await fetch(`${base}/console/console.js`);
      expect(script.status).toBe(200);
      expect(await script.text()).toContain('/__admin');

      // The tool server over stdio, as an agent's client starts it.
      const mcp = startCommand(['mcp', '--base-url', base, '--key', key], /"id":2/, true);
      const send = (message: object) => mcp.child.stdin?.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'outside', version: '1' },
        },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await mcp.matched;
      const list = mcp
        .output()
        .split('\n')
        .map((line) => (line.startsWith('{') ? JSON.parse(line) : {}))
        .find((m) => m.id === 2);
      expect(list.result.tools).toHaveLength(toolNames().length);

      const report = join(dir, 'report.json');
      const conformance = await npx([
        'lmskit',
        'conformance',
        '--base-url',
        base,
        '--api-key',
        'demo_site_key_4f1c9a7e2b6d8053',
        '--mcp-key',
        key,
        '--only',
        'v1.courses.*',
        '--report',
        `json=${report}`,
      ]);
      // A selection of checks leaves MUSTs unrun: incomplete, exit 3 (docs/conformance.md).
      expect(conformance.code, conformance.output).toBe(3);
      const json = JSON.parse(await readFile(report, 'utf8'));
      expect(json.outcome).toBe('incomplete');
      const ran = json.results.filter((r: { id: string }) => r.id.startsWith('v1.courses.'));
      expect(ran.length).toBeGreaterThan(0);
      expect(ran.every((r: { status: string }) => r.status === 'pass')).toBe(true);

      const generate = await npx(['lmskit', 'generate']);
      expect(generate.code).toBe(2);
      expect(generate.output).toContain('lmskit generate works in a clone of the kit');
      // Three commands and the processes' start: each command's budget.
    },
    3 * BUDGET_MS.command,
  );
});
