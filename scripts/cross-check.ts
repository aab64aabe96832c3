// `npm run cross-check` (CI): the mock checked by tools no one here wrote.
// 1. The conformance suite's traffic goes through `prism proxy --errors` (one Prism per API, in front
//    of the real mock process), so Prism validates every answer against the same contract and turns
//    any departure into an error the suite then reports. The suite runs as every role (keys of a
//    manager, an author and a learner, minted through the admin API), with the licence tenants and a
//    revoked key, and the real tool server, whose backend calls go through the same Prisms. Requests
//    are not validated by Prism (the suite sends invalid ones on purpose). Left out: the requests
//    without a key (Prism answers a request without credentials itself), the 20 MB upload (Prism
//    refuses any body over 10 MB itself), and the limit probes (the mock runs without a rate limit). Multipart
//    uploads go to the mock directly: Prism's proxy re-encodes a binary body as text (a DOC, DOCX, PNG
//    or JPEG arrives changed and is refused), so it cannot carry them.
// 2. The main v1 flows, written as Arazzo workflows, run with `redocly respect` against the mock.
// 3. The MCP tool server in front of the mock, judged by the official MCP conformance suite and the
//    MCP Inspector CLI (scripts/mcp-official-checks.ts).
// 4. Dredd 14 on the three contracts as `lmskit export --for dredd` writes them, with
//    tools/dredd/hooks.js, against a fresh mock process of its own (scripts/dredd-checks.ts).
// 5. Spectral's OWASP rules on the bounds of inputs, on the requests of the three contracts
//    (scripts/spectral-checks.ts): every string a client sends has a maxLength, every integer a range.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { ALL_CHECKS } from '../conformance/checks/index.ts';
import { summary } from '../conformance/reporters/terminal.ts';
import { runChecks } from '../conformance/runner.ts';
import { freePort } from '../lib/net.ts';
import { bundlePath, ROOT } from '../lib/paths.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';
import { runDredd } from './dredd-checks.ts';
import { runOfficialMcpChecks } from './mcp-official-checks.ts';
import { runSpectral } from './spectral-checks.ts';

const children: ChildProcess[] = [];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('exit', stop);

function start(name: string, command: string, args: string[], ready: RegExp): Promise<void> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not ready after 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const [mockPort, prismV1, prismV2, front, toolServerPort] = await Promise.all([
  freePort(),
  freePort(),
  freePort(),
  freePort(),
  freePort(),
]);
const mock = `http://127.0.0.1:${mockPort}`;

await start(
  'mock',
  process.execPath,
  [
    join(ROOT, 'bin', 'lmskit.js'),
    'mock',
    '--port',
    String(mockPort),
    '--admin-token',
    'cross-check-admin-token',
    '--rate-limit',
    '0',
  ],
  /ready/,
);
const admin = async (path: string, method: string, body?: unknown) => {
  const answer = await fetch(`${mock}/__admin${path}`, {
    method,
    headers: { authorization: 'Bearer cross-check-admin-token', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!answer.ok)
    throw new Error(`${method} /__admin${path} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json().catch(() => ({}))) as { key: string; id: string };
};
await admin('/tenants/demo/ai', 'PATCH', { generationMinSeconds: 0, generationMaxSeconds: 0 });
// Everything a complete run needs (docs/conformance.md, "Against the mock").
const keyOf = async (tenant: string, userId: string, scopes = ['read', 'write']) =>
  admin(`/tenants/${tenant}/mcp-keys`, 'POST', { userId, scopes });
const roleKeys = {
  manager: (await keyOf('demo', 'max')).key,
  author: (await keyOf('demo', 'aria')).key,
  learner: (await keyOf('demo', 'lena')).key,
};
const tenantKeys: Record<string, string> = {};
for (const [state, licence] of [
  ['read', { mcpAccess: 'read' }],
  ['none', { mcpAccess: 'none' }],
  ['no-ai', { mcpAccess: 'full', mcpAiAccess: false }],
] as const) {
  await admin('/tenants', 'POST', { id: `licence-${state}`, ...licence });
  tenantKeys[state] = (await keyOf(`licence-${state}`, 'admin')).key;
}
const revoked = await keyOf('demo', 'ada', ['read']);
await admin(`/tenants/demo/mcp-keys/${revoked.id}`, 'DELETE');
const prismArgs = (api: 'v1' | 'v2', port: number, upstream: string) => [
  'proxy',
  bundlePath(api),
  upstream,
  '--errors',
  '--validate-request=false',
  '-p',
  String(port),
  '-h',
  '127.0.0.1',
];
await Promise.all([
  start('prism v1', bin('prism'), prismArgs('v1', prismV1, `${mock}/openapi/v1`), /Prism is listening/),
  start('prism v2', bin('prism'), prismArgs('v2', prismV2, `${mock}/api/v2`), /Prism is listening/),
]);

// One base URL for the suite: each API's prefix goes to its Prism, without the prefix (Prism matches
// the spec's paths, which are relative to the server URL); the rest to the mock.
const frontServer = createServer((req, res) => {
  const url = req.url ?? '/';
  const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/');
  const [port, path] = multipart
    ? [mockPort, url]
    : url.startsWith('/openapi/v1/')
      ? [prismV1, url.slice('/openapi/v1'.length)]
      : url.startsWith('/api/v2/')
        ? [prismV2, url.slice('/api/v2'.length)]
        : [mockPort, url];
  const upstream = httpRequest(
    {
      host: '127.0.0.1',
      port,
      path,
      method: req.method,
      headers: { ...req.headers, host: `127.0.0.1:${port}` },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => res.writeHead(502).end(error.message));
  req.pipe(upstream);
});
await new Promise<void>((r) => frontServer.listen(front, '127.0.0.1', r));
await start(
  'tool server',
  process.execPath,
  [
    join(ROOT, 'bin', 'lmskit.js'),
    'mcp',
    '--http',
    '--port',
    String(toolServerPort),
    '--base-url',
    `http://127.0.0.1:${front}`,
  ],
  /Streamable HTTP/,
);

console.log(
  `conformance through prism proxy --errors (v1 :${prismV1}, v2 :${prismV2}) in front of the mock :${mockPort}`,
);
const report = await runChecks(ALL_CHECKS, {
  baseUrl: `http://127.0.0.1:${front}`,
  apiKey: DEMO_SITE_API_KEY,
  mcpKeys: [demoMcpKey('read'), demoMcpKey('write')],
  roleKeys,
  chainId: 1,
  tenantKeys,
  revokedKey: revoked.key,
  mcpUrl: `http://127.0.0.1:${toolServerPort}/mcp`,
  allowWrites: true,
  expertUserId: 'otto',
  skip: '*.auth.no-key.*,v2.ai.upload.size-limit',
});
console.log(summary(report));
const failed = report.results.filter((r) => r.status === 'fail');
frontServer.close();

console.log('\nArazzo workflows (redocly respect) against the mock');
const respect = spawn(
  bin('redocly'),
  [
    'respect',
    join(ROOT, 'arazzo', 'v1-flows.arazzo.yaml'),
    '--server',
    `v1=${mock}/openapi/v1`,
    '--input',
    `apiKey=${DEMO_SITE_API_KEY}`,
    '--input',
    `runId=arazzo${Date.now()}`,
  ],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
const respectCode = await new Promise<number | null>((r) => respect.on('exit', r));

console.log("\nThe MCP tool server, checked by the MCP project's own tools");
const mcpProblems = await runOfficialMcpChecks(mock);
for (const p of mcpProblems) console.log(`✗ ${p}`);
stop();

console.log(
  '\nDredd 14 on the exported contracts (lmskit export --for dredd, tools/dredd/hooks.js) against a fresh mock',
);
const dredd = await runDredd();
for (const p of dredd.problems) console.log(`✗ ${p}`);

console.log("\nSpectral's OWASP rules on the bounds of what clients send (tools/spectral/ruleset.yaml)");
const spectral = await runSpectral();
for (const p of spectral) console.log(`✗ ${p}`);
const ok =
  failed.length === 0 &&
  report.results.some((r) => r.status === 'pass') &&
  respectCode === 0 &&
  mcpProblems.length === 0 &&
  dredd.problems.length === 0 &&
  spectral.length === 0;
const passed = report.results.filter((r) => r.status === 'pass').length;
console.log(
  ok
    ? `\ncross-check: ${passed} checks agree with Prism, the Arazzo workflows pass, the MCP conformance suite and Inspector pass the tool server, and Dredd passes ${dredd.counts.reduce((n, c) => n + c.passing, 0)} transactions (${dredd.counts.reduce((n, c) => n + c.skipped, 0)} skipped), and Spectral finds every request string and integer bounded`
    : '\ncross-check FAILED',
);
process.exit(ok ? 0 : 1);
