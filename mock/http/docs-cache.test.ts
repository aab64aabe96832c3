// The docs site kept on disk by its inputs' content (docs/README.md, "While the mock runs"): built
// once for a given content, read by every later mock, built again when an input changes.
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { docsCache, docsInputsKey } from './docs-cache.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'lmskit-docs-cache-'));
  await mkdir(join(root, 'openapi'), { recursive: true });
  await mkdir(join(root, 'docs', 'site'), { recursive: true });
  await writeFile(join(root, 'openapi', 'v1.yaml'), 'openapi: 3.1.0\n');
  await writeFile(join(root, 'docs', 'mock.md'), '# The mock\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const INPUTS = ['openapi', 'docs'];
const key = () => docsInputsKey(root, INPUTS);

/** A cache in `root/cache` whose builder writes one page naming its build, and counts the builds. */
function cacheWithCounter() {
  const builds: string[] = [];
  const cache = docsCache({
    dir: join(root, 'cache'),
    key,
    build: async (out) => {
      builds.push(out);
      await mkdir(join(out, 'assets'), { recursive: true });
      await writeFile(join(out, 'index.html'), `build ${builds.length}`);
      await writeFile(join(out, 'assets', 'logo.png'), new Uint8Array([137, 80, 78, 71]));
    },
  });
  return { cache, builds };
}

describe('the key of the docs site’s inputs', () => {
  it('changes with an input’s content, and not with its modification time or with the built site', async () => {
    const before = await key();
    await utimes(join(root, 'docs', 'mock.md'), new Date(0), new Date(0));
    await writeFile(join(root, 'docs', 'site', 'index.html'), '<html>');
    expect(await key()).toBe(before);
    await writeFile(join(root, 'docs', 'mock.md'), '# The mock, changed\n');
    expect(await key()).not.toBe(before);
  });

  it('changes when an input file is added or renamed', async () => {
    const before = await key();
    await writeFile(join(root, 'docs', 'console.md'), '');
    const added = await key();
    expect(added).not.toBe(before);
    await rm(join(root, 'docs', 'console.md'));
    await writeFile(join(root, 'docs', 'guide.md'), '');
    expect(await key()).not.toBe(added);
  });
});

describe('the docs site kept on disk', () => {
  it('is built once: a second mock (a second cache on the same folder) reads the kept site', async () => {
    const first = cacheWithCounter();
    const files = await first.cache.load();
    expect(files.get('index.html')).toBe('build 1');
    expect(files.get('assets/logo.png')).toBeInstanceOf(Uint8Array);
    const second = cacheWithCounter();
    expect(await second.cache.built()).toBe(true);
    expect((await second.cache.load()).get('index.html')).toBe('build 1');
    expect(second.builds).toEqual([]);
  });

  it('is built once for callers who ask while it is being built', async () => {
    const { cache, builds } = cacheWithCounter();
    await Promise.all([cache.load(), cache.load(), cache.load()]);
    expect(builds).toHaveLength(1);
  });

  it('is built again when an input changes, and only the latest build is kept', async () => {
    const { cache } = cacheWithCounter();
    await cache.load();
    const keptBefore = await readdir(join(root, 'cache'));
    await writeFile(join(root, 'openapi', 'v1.yaml'), 'openapi: 3.1.1\n');
    const next = cacheWithCounter();
    expect(await next.cache.built()).toBe(false);
    expect((await next.cache.load()).get('index.html')).toBe('build 1');
    expect(next.builds).toHaveLength(1);
    const keptAfter = await readdir(join(root, 'cache'));
    expect(keptAfter).toEqual([await key()]);
    expect(keptAfter).not.toEqual(keptBefore);
  });

  it('keeps nothing of a build that failed, and the next load builds again', async () => {
    let fail = true;
    const cache = docsCache({
      dir: join(root, 'cache'),
      key,
      build: async (out) => {
        await mkdir(out, { recursive: true });
        await writeFile(join(out, 'index.html'), 'half');
        if (fail) throw new Error('Redocly could not read v1');
      },
    });
    await expect(cache.load()).rejects.toThrow('Redocly could not read v1');
    expect(await readdir(join(root, 'cache'))).toEqual([]);
    expect(await cache.built()).toBe(false);
    fail = false;
    expect((await cache.load()).get('index.html')).toBe('half');
  });

  it('builds into a temporary folder where its own folder cannot be made', async () => {
    const built: string[] = [];
    const cache = docsCache({
      // Under a file: no one, root included, can make a folder there.
      dir: join(root, 'docs', 'mock.md', 'cache'),
      key,
      build: async (out) => {
        built.push(out);
        await writeFile(join(out, 'index.html'), 'from a temporary folder');
      },
    });
    expect((await cache.load()).get('index.html')).toBe('from a temporary folder');
    expect(built[0]?.startsWith(tmpdir())).toBe(true);
    await expect(readFile(join(built[0] ?? '', 'index.html'))).rejects.toThrow();
  });
});
