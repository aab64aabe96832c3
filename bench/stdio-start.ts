// How long an agent waits for the tool server over stdio (docs/mcp.md, Run it): from spawning
// `lmskit mcp` (as a client such as Claude Desktop does, with its key) to the answer of `initialize` and
// then of `tools/list`, against a running mock. Run with `node --import tsx bench/stdio-start.ts`; prints
// the median and range of RUNS starts, each with its bundle already made (as every start after the
// first is). A measurement, not a test.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../lib/net.ts';
import { ROOT } from '../lib/paths.ts';
import { demoMcpKey } from '../mock/seed/demo.ts';
import { median } from './stats.ts';

const RUNS = Number(process.env.RUNS ?? 10);
const lmskit = join(ROOT, 'bin', 'lmskit.js');

const port = await freePort();
const mock = spawn(process.execPath, [lmskit, 'mock', '--port', String(port)], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
await new Promise<void>((resolve) => {
  let out = '';
  mock.stdout.on('data', (c) => {
    out += c;
    if (/ready/.test(out)) resolve();
  });
});

/** Milliseconds from spawn to the answers of `initialize` and of `tools/list`. */
function once(): Promise<{ initialize: number; list: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [lmskit, 'mcp', '--base-url', `http://127.0.0.1:${port}`], {
    env: { ...process.env, LMSKIT_MCP_KEY: demoMcpKey('write') },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  return new Promise((resolve) => {
    let buffer = '';
    let initialize = 0;
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const message = JSON.parse(buffer.slice(0, i));
        buffer = buffer.slice(i + 1);
        if (message.id === 1) {
          initialize = performance.now() - t0;
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          resolve({ initialize, list: performance.now() - t0 });
          child.stdin.end();
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
  });
}

await once(); // makes the bundle, as the first start after an edit does
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await once());
mock.kill('SIGTERM');
const show = (values: number[]) =>
  `${Math.round(median(values))} ms (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
console.log(`stdio start to initialize: ${show(runs.map((r) => r.initialize))}`);
console.log(`stdio start to tools/list: ${show(runs.map((r) => r.list))}`);
