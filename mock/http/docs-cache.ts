// The docs site kept on disk, by the content of what it is built from: a mock builds it once for a
// given set of contracts, guides and builder, and every later start (this one's restart, a test's
// next mock) reads the kept copy in a fraction of a second instead of building for seconds.
// Kept in `node_modules/.cache/lmskit/docs/<key>/`, the latest build only; where that folder cannot
// be written, each build goes to a temporary folder as before.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from '../../lib/paths.ts';

/** The site's files: name relative to its root → content. */
export type DocsFiles = Map<string, string | Uint8Array>;

/**
 * What the site is made from, relative to the kit's root: the contracts and their bundles, the tool
 * schemas, the guides and their pictures, the seeds, the builder and the demo keys it prints, and the
 * locked versions of its tools (Redoc, marked). Broader than needed rather than narrower: a change to
 * any of these builds the site again.
 */
const DOCS_INPUTS = [
  'generated',
  'mcp-schema',
  'openapi',
  'docs',
  'lib',
  'mock/seed',
  'scripts/build-docs.ts',
  'README.md',
  'package-lock.json',
];
/** Under the inputs, what is not an input: the site itself (`npm run docs` writes it into docs/site). */
const NOT_INPUTS = new Set(['docs/site']);

/** A hash of the inputs' paths and content: equal keys, equal sites. */
export async function docsInputsKey(root = ROOT, inputs = DOCS_INPUTS): Promise<string> {
  const hash = createHash('sha256');
  const add = async (path: string): Promise<void> => {
    const name = relative(root, path).split('\\').join('/');
    if (NOT_INPUTS.has(name)) return;
    let entries: string[];
    try {
      entries = (await readdir(path)).sort();
    } catch {
      // A file (or nothing: an input a clone lacks counts as empty).
      const content = await readFile(path).catch(() => Buffer.alloc(0));
      hash.update(`${name}\0${content.length}\0`).update(content);
      return;
    }
    for (const entry of entries) if (!entry.startsWith('.')) await add(join(path, entry));
  };
  for (const input of inputs) await add(join(root, input));
  return hash.digest('hex').slice(0, 16);
}

/** Reads a built site from its folder. */
async function readSite(dir: string): Promise<DocsFiles> {
  const files: DocsFiles = new Map();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(dir, path).split('\\').join('/');
    const binary = !/\.(html|js|css|json|svg)$/.test(name);
    files.set(name, binary ? await readFile(path) : await readFile(path, 'utf8'));
  }
  return files;
}

export interface DocsCache {
  /** The site: the kept build for the current inputs, else one build now (shared by every caller meanwhile). */
  load: () => Promise<DocsFiles>;
  /** Whether a build for the current inputs is kept. */
  built: () => Promise<boolean>;
}

/** A build in progress is `<key>.<pid>.tmp`; a finished one is `<key>`. */
const IN_PROGRESS = /^[0-9a-f]+\.(\d+)\.tmp$/;
const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `build(out)` writes the site into the folder `out`; the cache keeps it under `dir` by `key()`.
 * Two processes that build at once both finish; the first to rename its folder into place wins.
 */
export function docsCache(options: {
  dir: string;
  key: () => Promise<string>;
  build: (out: string) => Promise<void>;
}): DocsCache {
  const { dir, key, build } = options;
  let site: Promise<DocsFiles> | undefined;
  const kept = async () => join(dir, await key());

  async function buildKept(): Promise<DocsFiles> {
    const ready = await kept();
    if (existsSync(ready)) return readSite(ready);
    const writable = await mkdir(dir, { recursive: true }).then(
      () => true,
      () => false,
    );
    if (!writable) {
      const out = await mkdtemp(join(tmpdir(), 'lmskit-docs-'));
      try {
        await build(out);
        return await readSite(out);
      } finally {
        await rm(out, { recursive: true, force: true });
      }
    }
    const out = `${ready}.${process.pid}.tmp`;
    try {
      await rm(out, { recursive: true, force: true });
      await build(out);
      // Another process may have put the same build in place first: then its copy is kept.
      await rename(out, ready).catch((error) => {
        if (!existsSync(ready)) throw error;
      });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
    // Only the latest build is kept, and no folder a stopped build left behind.
    for (const name of await readdir(dir)) {
      const pid = IN_PROGRESS.exec(name)?.[1];
      if (join(dir, name) !== ready && (pid === undefined || !running(Number(pid))))
        await rm(join(dir, name), { recursive: true, force: true });
    }
    return readSite(ready);
  }

  return {
    load: () => {
      site ??= buildKept().catch((error) => {
        site = undefined;
        throw error;
      });
      return site;
    },
    built: async () => existsSync(await kept()),
  };
}
