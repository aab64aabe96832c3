// The docs site at /docs/, fresh from the contracts the mock runs on: built in a child process (so the
// mock's event loop never waits for it) once for a given content of its inputs and kept on disk
// (docs-cache.ts), read on the first request, then served from memory. A
// reference page, and the home page with its box of addresses, name the mock's default address;
// they are served with the address they were requested at instead, so their code samples, links and
// "Try it" talk to this very mock.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Request, type Response, Router } from 'express';
import { ROOT } from '../../lib/paths.ts';
import { type DocsCache, type DocsFiles, docsCache, docsInputsKey } from './docs-cache.ts';
import { docsPolicy } from './page-headers.ts';
import { answeredAsReadOnly } from './read-only.ts';

export type { DocsFiles };
export type LoadDocs = () => Promise<DocsFiles>;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** `<meta name="lmskit-mock" content="static" data-origin="…">`, which `lib/docs-site/reference.ts` writes. */
const STATIC_META = /<meta name="lmskit-mock" content="static" data-origin="([^"]+)">/;
/**
 * What a page says only when built (how to name another port) and only when served (which mock
 * serves it): `lib/docs-site/home.ts` writes the second hidden; a served page shows it instead.
 */
const WHEN = { static: ' data-lmskit-when="static">', live: ' data-lmskit-when="live" hidden>' };
/** A Host header that can stand in a URL as it is: a name or IPv4 or [IPv6] address, and a port. */
const HOST = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/** A page that names the mock's address, as the mock serves it: marked live, with the address it was requested at. */
export function servedPage(page: string, req: Request): string {
  const origin = STATIC_META.exec(page)?.[1];
  if (!origin) return page;
  // Express's view of the host and scheme: behind a trusted proxy, the ones the proxy forwarded.
  const host = req.host ?? '';
  const live = page
    .replace(STATIC_META, (tag) => tag.replace('content="static"', 'content="live"'))
    .replaceAll(WHEN.static, ' data-lmskit-when="static" hidden>')
    .replaceAll(WHEN.live, ' data-lmskit-when="live">');
  return HOST.test(host) ? live.replaceAll(origin, `${req.protocol}://${host}`) : live;
}

const html = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`;

/** Policies of served pages remembered, by page and address (a reference page is ~2.6 MB to hash). */
const POLICIES_KEPT = 32;

export function docsRouter(load: LoadDocs): Router {
  let site: Promise<DocsFiles> | undefined;
  const router = Router();
  const basePolicy = docsPolicy();
  const policies = new Map<string, string>();
  /** The policy of a page as served: its inline scripts by hash (page-headers.ts). */
  const policyOf = (key: string, page: string) => {
    let policy = policies.get(key);
    if (!policy) {
      if (policies.size >= POLICIES_KEPT) policies.clear();
      policy = docsPolicy(page);
      policies.set(key, policy);
    }
    return policy;
  };
  router.use(async (req: Request, res: Response) => {
    res.set({ 'Content-Security-Policy': basePolicy, 'X-Content-Type-Options': 'nosniff' });
    if (answeredAsReadOnly(req, res, 'The docs are')) return;
    if (!site) {
      site = load();
      // A failed build is reported, and the next request tries again.
      site.catch((error: Error) => {
        console.error(`docs: the site could not be built: ${error.message}`);
        site = undefined;
      });
    }
    let files: DocsFiles;
    try {
      files = await site;
    } catch (error) {
      res
        .status(503)
        .type('html')
        .send(
          html(
            'The docs are not available',
            `The site could not be built from the contracts: ${String((error as Error).message).replace(/[&<>]/g, ' ')}. <code>npm run docs</code> shows the same error.`,
          ),
        );
      return;
    }
    const name = req.path === '/' ? 'index.html' : safeDecode(req.path.slice(1));
    const content = name === undefined ? undefined : files.get(name);
    if (content === undefined) {
      res
        .status(404)
        .type('html')
        .send(html('Not found', 'No such page. <a href="/docs/">The docs start here.</a>'));
      return;
    }
    res.set('cache-control', 'no-cache').type(TYPES[extname(name ?? '')] ?? 'application/octet-stream');
    if (typeof content !== 'string' || !name?.endsWith('.html')) {
      res.send(content);
      return;
    }
    const page = servedPage(content, req);
    res.set('Content-Security-Policy', policyOf(`${name} ${req.protocol}://${req.host}`, page)).send(page);
  });
  return router;
}

function safeDecode(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Whether this installation can build the site: a clone can; the installed package leaves the site's
 * builder and its tools (Redocly, marked, httpsnippet) out, and serves no /docs/.
 */
export const docsBuildable = () => existsSync(join(ROOT, 'scripts', 'build-docs.ts'));

/**
 * Builds the site with `lmskit docs --out <folder>` in a child process (from the command's bundle, as
 * `npm start` runs): about 5 seconds of one core.
 */
async function buildDocsInChildProcess(out: string): Promise<void> {
  await promisify(execFile)(process.execPath, [join(ROOT, 'bin', 'lmskit.js'), 'docs', '--out', out], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stderr?: string; message: string }) => {
    // The child's stack trace ends in Node's version line; the error's own line says what went wrong.
    const lines = (error.stderr ?? '').trim().split('\n');
    throw new Error(lines.find((l) => /^\s*\w*Error:/.test(l))?.trim() || error.message);
  });
}

/**
 * The mock's docs: kept on disk by the content of their inputs (docs-cache.ts) in `dir`
 * (`LMSKIT_DOCS_CACHE`), built in a child process.
 */
export const mockDocs = (dir = join(ROOT, 'node_modules', '.cache', 'lmskit', 'docs')): DocsCache =>
  docsCache({
    dir,
    key: () => docsInputsKey(),
    build: buildDocsInChildProcess,
  });

/** What the banner says a build takes: 5–6 s of one core here, more on a busy or slower machine. */
export const DOCS_BUILD_TIME = 'about 10 seconds';
