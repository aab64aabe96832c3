// How `lmskit` starts a command (docs/architecture.md, Start): from one bundle of the command's own
// sources and packages, kept until one of them changes, and through tsx where no bundle can be written. The
// bundle must behave as the sources do, down to `import.meta.url` naming each module's own file.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BUNDLE_JS = pathToFileURL(join(import.meta.dirname, '../../bin/bundle.js')).href;
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/**
 * A tiny kit: `main.ts` reports what `greeting.ts` says and which file it thinks it is, and imports
 * `later.ts`, which imports a package, when asked.
 */
function kit(greeting: string): string {
  const root = mkdtempSync(join(tmpdir(), 'lmskit-bundle-'));
  roots.push(root);
  mkdirSync(join(root, 'lib'));
  writeFileSync(
    join(root, 'main.ts'),
    "export { greeting, self } from './lib/greeting.ts';\nexport const later = async () => (await import('./lib/later.ts')).value;\n",
  );
  // A package imported by a module the command imports dynamically, as Express is by the tool
  // server's HTTP side: it says when it is loaded.
  mkdirSync(join(root, 'node_modules', 'later-package'), { recursive: true });
  writeFileSync(
    join(root, 'node_modules', 'later-package', 'package.json'),
    JSON.stringify({ name: 'later-package', type: 'module', exports: './index.js' }),
  );
  writeFileSync(
    join(root, 'node_modules', 'later-package', 'index.js'),
    "globalThis.laterLoaded = true;\nexport const value = 'later';\n",
  );
  writeFileSync(join(root, 'lib', 'later.ts'), "export { value } from 'later-package';\n");
  say(root, greeting);
  return root;
}
function say(root: string, greeting: string): void {
  writeFileSync(
    join(root, 'lib', 'greeting.ts'),
    `export const greeting: string = ${JSON.stringify(greeting)};\nexport const self = import.meta.url;\n`,
  );
}

/** Makes (or reuses) the bundle in a separate process and loads it, as `bin/lmskit.js` does. */
function start(root: string): {
  url: string | null;
  greeting?: string;
  self?: string;
  loadedAtStart?: boolean;
  later?: string;
} {
  const script = `
    const { bundled } = await import(${JSON.stringify(BUNDLE_JS)});
    const url = await bundled(${JSON.stringify(root)}, 'main', ${JSON.stringify(join(root, 'main.ts'))});
    const m = url ? await import(url) : {};
    const loadedAtStart = globalThis.laterLoaded === true;
    const later = m.later ? await m.later() : undefined;
    console.log(JSON.stringify({ url, greeting: m.greeting, self: m.self, loadedAtStart, later }));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(out.stderr).toBe('');
  return JSON.parse(out.stdout);
}

describe('starting a command from a bundle of its sources', () => {
  it('runs the bundle, where import.meta.url is still each module’s own file', () => {
    const root = kit('hello');
    const first = start(root);
    expect(first.url).toMatch(
      /\/node_modules\/\.cache\/lmskit\/main-[0-9a-f]{8}-[0-9a-f]{16}\/main-[0-9a-f]{8}\.mjs$/,
    );
    expect(first.greeting).toBe('hello');
    expect(first.self).toBe(pathToFileURL(join(root, 'lib', 'greeting.ts')).href);
  });

  it("loads a module the command imports dynamically only when it is imported (the tool server's HTTP side)", () => {
    const started = start(kit('hello'));
    expect(started.loadedAtStart).toBe(false);
    expect(started.later).toBe('later');
  });

  it('keeps the bundle while the sources are unchanged, and rebuilds it when one changes', () => {
    const root = kit('hello');
    const first = start(root);
    expect(start(root).url).toBe(first.url);

    say(root, 'hello again');
    const second = start(root);
    expect(second.greeting).toBe('hello again');
    expect(second.url).not.toBe(first.url);
    // The replaced bundle is removed, so edits do not pile files up.
    expect(existsSync(fileURLToPath(first.url as string))).toBe(false);
  });

  it("bundles the packages too, and rebuilds when an install rewrites npm's record of them (node_modules/.package-lock.json)", () => {
    const root = kit('hello');
    const record = join(root, 'node_modules', '.package-lock.json');
    writeFileSync(record, '{"lockfileVersion":3,"packages":{}}');
    const first = start(root);
    expect(first.later).toBe('later');
    // The package's code is in the bundle's files, not loaded from node_modules.
    const folder = dirname(fileURLToPath(first.url as string));
    const bundledText = readdirSync(folder)
      .map((f) => readFileSync(join(folder, f), 'utf8'))
      .join('\n');
    expect(bundledText).toContain('laterLoaded');
    // A package changed by an install: npm rewrites its record, and the next start rebuilds.
    writeFileSync(
      join(root, 'node_modules', 'later-package', 'index.js'),
      "globalThis.laterLoaded = true;\nexport const value = 'later, reinstalled';\n",
    );
    writeFileSync(record, '{"lockfileVersion":3,"packages":{"node_modules/later-package":{}}}');
    const second = start(root);
    expect(second.later).toBe('later, reinstalled');
    expect(second.url).not.toBe(first.url);
  });

  it('answers no bundle where none can be written, so the command runs through tsx', () => {
    const root = kit('hello');
    writeFileSync(join(root, 'node_modules', '.cache'), 'a file where the cache directory would go');
    expect(start(root).url).toBeNull();
  });
});
