// `lmskit mcp --http`: the tool server over Streamable HTTP, behind its Host, Origin, proxy and
// upload rules (mcp-server/http.ts). Apart from mcp-server/main.ts so that a stdio start loads none of
// it: Express and its body parsers were a fifth of a stdio connection's start (bin/bundle.js loads a
// dynamically imported module only when it is imported).
import { usageError } from '../lib/cli.ts';
import { trustProxyOf } from '../lib/client-address.ts';
import { expressServer } from '../lib/express-server.ts';
import { allowedHostsFor, createHttpApp, listensEverywhere, SERVER_OPTIONS } from './http.ts';
import type { ToolRunner } from './tools.ts';
import type { UploadAccess } from './uploads.ts';

export interface HttpCommand {
  values: {
    host: string;
    'allowed-hosts'?: string | undefined;
    'allow-origin': string[];
    'trust-proxy': string;
  };
  port: number;
  baseUrl: string;
  runner: ToolRunner;
  version: string;
  uploads: UploadAccess;
  help: string;
}

export function serveHttp({ values, port, baseUrl, runner, version, uploads, help }: HttpCommand): void {
  let allowedHosts: string[];
  try {
    allowedHosts = allowedHostsFor(
      values.host,
      values['allowed-hosts']?.split(',').map((h) => h.trim()),
    );
  } catch {
    usageError(
      `not a host name in --host or --allowed-hosts: ${values.host} ${values['allowed-hosts'] ?? ''}`,
      help,
    );
  }
  if (listensEverywhere(values.host) && !values['allowed-hosts'])
    console.error(
      `lmskit mcp: listening on every interface, but only requests whose Host is ${allowedHosts.join(', ')} are served; name the others with --allowed-hosts`,
    );
  let trustProxy: ReturnType<typeof trustProxyOf>;
  try {
    trustProxy = trustProxyOf(values['trust-proxy']);
  } catch (error) {
    usageError((error as Error).message, help);
  }
  const app = createHttpApp({
    baseUrl,
    runner,
    version,
    host: values.host,
    allowedHosts,
    allowedOrigins: values['allow-origin'],
    ...(uploads.kind === 'inside' ? { uploadRoot: uploads.root } : {}),
    trustProxy,
  });
  const server = expressServer(app, SERVER_OPTIONS).listen(port, values.host, () => {
    console.log(
      `lmskit MCP server (Streamable HTTP) on http://${values.host}:${port}/mcp, backend ${baseUrl}/api/v2`,
    );
  });
  server.on('error', (error) => {
    console.error(`cannot listen on ${values.host}:${port}: ${error.message}`);
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => server.close(() => process.exit(0)));
}
