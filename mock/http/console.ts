// The console at /console/ (docs/console.md, docs/adr-0006-console.md): a page, a stylesheet and a
// script bundled from console/src/ by esbuild on the first request, then served from memory. Nothing
// is fetched from another host and no build output is committed or shipped: the same source runs in
// a clone (`npm start`) and in an installed package. The admin token never reaches the server in a
// URL: the banner's link carries it in the fragment, which the browser keeps to itself.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Request, type Response, Router } from 'express';
import { ROOT } from '../../lib/paths.ts';
import { CONSOLE_POLICY } from './page-headers.ts';
import { answeredAsReadOnly } from './read-only.ts';

export const CONSOLE_DIR = join(ROOT, 'console');

/** The console's files by name: the page and stylesheet as written, the script as bundled. */
type ConsoleFiles = Map<string, { type: string; body: string }>;

/** Bundles console/src/main.tsx with Preact and the typed admin client into one script. */
async function build(): Promise<ConsoleFiles> {
  // Loaded here, not at start: a mock nobody opens the console of never loads esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(CONSOLE_DIR, 'src', 'main.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
    // Resolved from the kit's own node_modules, wherever the kit is installed.
    absWorkingDir: ROOT,
  });
  const script = result.outputFiles[0]?.text;
  if (!script) throw new Error('esbuild produced no console script');
  return new Map([
    [
      'index.html',
      { type: 'text/html; charset=utf-8', body: await readFile(join(CONSOLE_DIR, 'index.html'), 'utf8') },
    ],
    [
      'console.css',
      { type: 'text/css; charset=utf-8', body: await readFile(join(CONSOLE_DIR, 'console.css'), 'utf8') },
    ],
    ['console.js', { type: 'text/javascript; charset=utf-8', body: script }],
  ]);
}

export function consoleRouter(): Router {
  let files: Promise<ConsoleFiles> | undefined;
  const router = Router();
  router.use(async (req: Request, res: Response) => {
    res.set({ 'Content-Security-Policy': CONSOLE_POLICY, 'X-Content-Type-Options': 'nosniff' });
    if (answeredAsReadOnly(req, res, 'The console is')) return;
    files ??= build();
    let built: ConsoleFiles;
    try {
      built = await files;
    } catch (error) {
      files = undefined; // the next request tries again
      res
        .status(503)
        .type('text/plain')
        .send(`The console could not be built: ${(error as Error).message.split('\n')[0]}\n`);
      return;
    }
    const name = req.path === '/' ? 'index.html' : req.path.slice(1);
    const file = built.get(name);
    if (!file) {
      res.status(404).type('text/plain').send(`No console file ${req.path}\n`);
      return;
    }
    res.set('cache-control', 'no-cache').type(file.type).send(file.body);
  });
  return router;
}
