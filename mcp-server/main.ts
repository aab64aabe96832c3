// `npx lmskit mcp`: the MCP tool server in front of an /api/v2 backend — stdio by default (the key
// from --key or LMSKIT_MCP_KEY), or Streamable HTTP at /mcp with --http (each request brings its key).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromEnv, parseCommandLine, portOf, usageError } from '../lib/cli.ts';
import { ROOT } from '../lib/paths.ts';
import { Backend } from './backend.ts';
import { ToolServer } from './server.ts';
import { StdioTransport } from './stdio.ts';
import { ToolRunner } from './tools.ts';
import { ANY_PATH, type UploadAccess, uploadRootOf } from './uploads.ts';

const HELP = `usage: lmskit mcp [--http] [options]

  --base-url URL      the platform whose /api/v2 the tools call (LMSKIT_BASE_URL, default http://127.0.0.1:4010)
  --key KEY           MCP key for stdio (LMSKIT_MCP_KEY); over HTTP each request sends X-MCP-Key
  --http              serve Streamable HTTP at /mcp instead of stdio
  --port N            HTTP port (LMSKIT_MCP_PORT, default 4020)
  --host H            HTTP address (default 127.0.0.1)
  --allowed-hosts H   host names the Host header may carry, comma-separated (default: localhost,
                      127.0.0.1, [::1] and the --host address); others get 403 (DNS rebinding)
  --allow-origin O    an Origin besides localhost's that may call the HTTP server, with CORS (repeatable)
  --upload-root DIR   the directory upload_source_material may read files in: over HTTP it reads nothing
                      without it; over stdio any path the user can read unless it is given
  --trust-proxy LIST  HTTP: the reverse proxies whose X-Forwarded-For names the client, so failed logins
                      count per client behind them (LMSKIT_MCP_TRUST_PROXY: addresses, subnets,
                      loopback or none; default none)

HTTP bounds: a body is read only once the request's X-MCP-Key is well-formed and accepted by the
platform, and is at most 1 MB; a request must arrive whole within 25 s (a stalled one is dropped
within 30 s).
`;

const values = parseCommandLine(
  {
    'base-url': { type: 'string', default: fromEnv('LMSKIT_BASE_URL') ?? 'http://127.0.0.1:4010' },
    key: { type: 'string', default: fromEnv('LMSKIT_MCP_KEY') },
    http: { type: 'boolean', default: false },
    port: { type: 'string', default: fromEnv('LMSKIT_MCP_PORT') ?? '4020' },
    host: { type: 'string', default: '127.0.0.1' },
    'allowed-hosts': { type: 'string' },
    'allow-origin': { type: 'string', multiple: true, default: [] },
    'upload-root': { type: 'string' },
    // An empty variable is the default, never a wider trust.
    'trust-proxy': { type: 'string', default: fromEnv('LMSKIT_MCP_TRUST_PROXY') ?? 'none' },
  },
  HELP,
);
const port = portOf(values.port, HELP);

const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const runner = new ToolRunner();
const baseUrl = values['base-url'];

let uploads: UploadAccess = ANY_PATH;
if (values['upload-root'] !== undefined) {
  try {
    uploads = { kind: 'inside', root: uploadRootOf(values['upload-root']) };
  } catch (error) {
    usageError((error as Error).message, HELP);
  }
}

if (values.http) {
  const { serveHttp } = await import('./serve-http.ts');
  serveHttp({ values, port, baseUrl, runner, version, uploads, help: HELP });
} else {
  if (!values.key) usageError('lmskit mcp: no MCP key; pass --key or set LMSKIT_MCP_KEY', HELP);
  const toolServer = new ToolServer({
    backend: new Backend({ baseUrl, key: values.key }),
    runner,
    version,
    uploads,
  });
  const names = await toolServer.refresh(false);
  // stdout belongs to the protocol: everything else goes to stderr.
  if (toolServer.problem) console.error(`lmskit mcp: ${toolServer.problem}`);
  else console.error(`lmskit mcp: ${names.length} tools for this key, backend ${baseUrl}/api/v2`);
  await toolServer.connect(new StdioTransport());
}
