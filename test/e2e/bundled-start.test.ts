// How `lmskit` starts a command (docs/architecture.md, Start): from one bundle of the command's own
// sources, kept until one of them changes, and through tsx where no bundle can be written. The
// bundle must behave as the sources do, down to `import.meta.url` naming each module's own file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BUNDLE_JS = pathToFileURL(join(import.meta.dirname, '../../bin/bundle.js')).href;
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A tiny kit: `main.ts` reports what `greeting.ts` says and which file it thinks it is. */
function kit(greeting: string): string {
  const root = mkdtempSync(join(tmpdir(), 'lmskit-bundle-'));
  roots.push(root);
  mkdirSync(join(root, 'lib'));
  writeFileSync(join(root, 'main.ts'), "export { greeting, self } from './lib/greeting.ts';\n");
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
function start(root: string): { url: string | null; greeting?: string; self?: string } {
  const script = `
    const { bundled } = await import(${JSON.stringify(BUNDLE_JS)});
    const url = await bundled(${JSON.stringify(root)}, 'main', ${JSON.stringify(join(root, 'main.ts'))});
    const m = url ? await import(url) : {};
    console.log(JSON.stringify({ url, greeting: m.greeting, self: m.self }));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(out.stderr).toBe('');
  return JSON.parse(out.stdout);
}

describe('starting a command from a bundle of its sources', () => {
  it('runs the bundle, where import.meta.url is still each module’s own file', () => {
    const root = kit('hello');
    const first = start(root);
    expect(first.url).toMatch(/\/node_modules\/\.cache\/lmskit\/main-[0-9a-f]{8}-[0-9a-f]{16}\.mjs$/);
    expect(first.greeting).toBe('hello');
    expect(first.self).toBe(pathToFileURL(join(root, 'lib', 'greeting.ts')).href);
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

  it('answers no bundle where none can be written, so the command runs through tsx', () => {
    const root = kit('hello');
    writeFileSync(join(root, 'node_modules'), 'a file where the cache directory would go');
    expect(start(root).url).toBeNull();
  });
});
