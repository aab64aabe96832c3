// The tool server over Streamable HTTP started from code, in the caller's process (docs/guide.md,
// "startMcpServer"), as startMock starts the mock: a test suite of an agent starts it in
// milliseconds, `stop()` resolves once its port and every connection are closed, and nothing
// outlives a test runner that is killed — where `npx lmskit mcp` spawned through `npm exec` leaves
// its server running when the test kills `npm exec`, the child not being told. It is the server
// `lmskit mcp --http` runs (mcp-server/http.ts), with its own connections to the platform, closed
// at `stop()` too.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { allowedHostsFor, listensEverywhere } from '../lib/allowed-hosts.ts';
import { trustProxyOf } from '../lib/client-address.ts';
import { expressServer } from '../lib/express-server.ts';
import { ROOT } from '../lib/paths.ts';
import { keepAliveAgent } from './backend.ts';
import { createHttpApp, KEY_FORMAT, SERVER_OPTIONS } from './http.ts';
import { ToolRunner } from './tools.ts';
import { uploadRootOf } from './uploads.ts';

export interface McpServerOptions {
  /** The platform whose `/api/v2` the tools call: a mock's `url`, or a deployment's origin. */
  baseUrl: string;
  /**
   * The MCP key a request from this machine acts with when it sends no `X-MCP-Key` (a request that
   * sends one acts with its own), and the key `client()` connects with when given none. Default: none,
   * and every request must send its key, as with `lmskit mcp --http`. A request from another machine
   * (a server listening beyond loopback) never acts with it.
   */
  key?: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; default `127.0.0.1`. */
  host?: string;
  /** Host names besides localhost's and `host` that requests may name in `Host` (DNS rebinding). */
  allowedHosts?: string[];
  /** Browser origins besides localhost's that may call the server, with CORS. */
  allowedOrigins?: string[];
  /**
   * The directory `upload_source_material` may read files in (`--upload-root`); without it the tool
   * refuses every path, as over HTTP from the command line.
   */
  uploadRoot?: string;
  /** The reverse proxies whose `X-Forwarded-For` names the client (`--trust-proxy`); default `none`. */
  trustProxy?: string;
}

export interface McpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`: `mcpUrl` of runConformance, or an agent's. */
  url: string;
  /**
   * An official MCP SDK client, connected over Streamable HTTP with `X-MCP-Key: key` (default: the
   * server's `key`); `stop()` closes it, or close it yourself with `client.close()`.
   */
  client(key?: string): Promise<Client>;
  /**
   * Closes the clients `client()` made, the port, every open connection and the server's own
   * connections to the platform; resolves when all are closed. Safe to call twice.
   */
  stop(): Promise<void>;
}

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The tools' compiled schemas: built on the first start, never changed, shared by every server. */
let runner: ToolRunner | undefined;

const refuse = (message: string): never => {
  throw new Error(`startMcpServer: ${message}`);
};

/** Starts the MCP tool server over Streamable HTTP in this process; resolves once it listens. */
export async function startMcpServer(options = {} as McpServerOptions): Promise<McpServer> {
  const { baseUrl, key, port = 0, host = '127.0.0.1' } = options;
  if (!baseUrl) refuse('baseUrl is required: the platform whose /api/v2 the tools call (a mock’s url)');
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    refuse(`baseUrl is not an http(s) URL: ${baseUrl}`);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) refuse(`not a port: ${port}`);
  if (key !== undefined && !KEY_FORMAT.test(key))
    refuse(
      'key is no MCP key: a key is 48 characters, a 5-character prefix ending in _ and 43 characters of URL-safe base64',
    );
  let allowedHosts: string[];
  try {
    allowedHosts = [...allowedHostsFor(host), ...allowedHostsFor(host, options.allowedHosts)];
  } catch {
    return refuse(`not a host name in host or allowedHosts: ${host} ${options.allowedHosts ?? ''}`);
  }
  let trustProxy: ReturnType<typeof trustProxyOf> | undefined;
  let uploadRoot: string | undefined;
  try {
    if (options.trustProxy !== undefined) trustProxy = trustProxyOf(options.trustProxy);
    if (options.uploadRoot !== undefined) uploadRoot = uploadRootOf(options.uploadRoot);
  } catch (error) {
    // The command line's sentences name its flags; here the options are named.
    return refuse(
      (error as Error).message.replace('--upload-root', 'uploadRoot').replace('--trust-proxy', 'trustProxy'),
    );
  }

  if (listensEverywhere(host)) {
    const but = [
      ...(options.allowedHosts?.length
        ? []
        : [
            `only requests whose Host is ${[...new Set(allowedHosts)].join(', ')} are served; name the others in allowedHosts`,
          ]),
      ...(key
        ? ['requests from other machines must send their own X-MCP-Key (`key` acts for this machine only)']
        : []),
    ];
    if (but.length) console.warn(`startMcpServer: listening on every interface, but ${but.join('; ')}`);
  }

  // Connections of its own to the platform, so stop() closes them; the command's are the process's.
  const agent = keepAliveAgent();
  runner ??= new ToolRunner();
  const app = createHttpApp({
    baseUrl,
    runner,
    version: VERSION,
    host,
    allowedHosts: [...new Set(allowedHosts)],
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(uploadRoot ? { uploadRoot } : {}),
    ...(trustProxy ? { trustProxy } : {}),
    ...(key ? { defaultKey: key } : {}),
    backend: { agent },
  });
  const server = expressServer(app, SERVER_OPTIONS).listen(port, host);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    agent.http.destroy();
    agent.https.destroy();
    return refuse(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const { port: bound } = server.address() as AddressInfo;
  // Listening on every interface, the URL names 127.0.0.1, a host the Host check serves.
  const shown = listensEverywhere(host) ? '127.0.0.1' : host;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}/mcp`;

  const clients = new Set<Client>();
  let stopped: Promise<void> | undefined;

  const client = async (clientKey = key): Promise<Client> => {
    if (stopped) refuse('client(): the server is stopped');
    if (!clientKey) return refuse('client() needs a key: pass one, or start the server with `key`');
    const sdk = new Client({ name: 'lmskit startMcpServer', version: VERSION });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { 'X-MCP-Key': clientKey } },
    });
    try {
      await sdk.connect(transport);
    } catch (error) {
      await sdk.close().catch(() => {});
      return refuse(`client(): the tool server did not accept the key: ${(error as Error).message}`);
    }
    clients.add(sdk);
    const onclose = sdk.onclose;
    sdk.onclose = () => {
      clients.delete(sdk);
      onclose?.();
    };
    return sdk;
  };

  const stop = () => {
    stopped ??= (async () => {
      await Promise.all([...clients].map((c) => c.close().catch(() => {})));
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      agent.http.destroy();
      agent.https.destroy();
    })();
    return stopped;
  };

  return { url, client, stop };
}
