// `npm start` until the mock exists: builds the docs site and serves it on loopback.
import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { parseArgs } from 'node:util';
import { buildDocsSite, DOCS_SITE_DIR } from '../lib/docs-site.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.LMSKIT_PORT ?? '4010' },
    host: { type: 'string', default: process.env.LMSKIT_HOST ?? '127.0.0.1' },
  },
});
await buildDocsSite();
const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.json': 'application/json' };
const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
    /^(\.\.[/\\])+/,
    '',
  );
  const file = join(DOCS_SITE_DIR, path.endsWith('/') ? `${path}index.html` : path);
  if (!file.startsWith(DOCS_SITE_DIR) || !existsSync(file)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    return;
  }
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
server.listen(Number(values.port), values.host, () => {
  console.log(`lmskit docs: http://${values.host}:${values.port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => server.close(() => process.exit(0)));
