// Where upload_source_material may read (docs/mcp.md, "Security"). Over Streamable HTTP the client is
// someone else, on another machine: it may have files read only inside the directory the operator
// names with --upload-root, by resolved real path (no `..`, no symlink out, regular files only), and
// without that flag not at all. Over stdio the client is the agent that started the server on its own
// machine (seed 000, "AI tools": "<absolute local file path>"), and any path its user can read works.
// In no answer of either: OS error text, or a difference between a path outside the root, a missing
// file and an unreadable one (which would tell the client what exists on the server's machine).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLmskit, type SpawnOptions } from '../e2e/process.ts';
import {
  call,
  callFails,
  callOk,
  httpClient,
  journalMark,
  type Mock,
  minimalPdf,
  ROOT,
  startHttpToolServer,
  startMock,
  stdioClient,
  stopAll,
  textOf,
  WRITE_KEY,
} from './setup.ts';

const ROOT_USER = process.getuid?.() === 0;
const NOBODY: SpawnOptions = { uid: 65534, gid: 65534 };
/** Permissions do not bind root: an unreadable file is tried with the server run as `nobody`, when it can read the kit. */
const NOBODY_RUNS_KIT =
  ROOT_USER &&
  spawnSync(
    process.execPath,
    ['-e', 'require("fs").accessSync(process.argv[1], 4)', join(ROOT, 'bin', 'lmskit.js')],
    { ...NOBODY, stdio: 'ignore' },
  ).status === 0;

/** An answer that leaks how the operating system failed (errno names and their texts). */
const OS_ERROR =
  /\b(EACCES|EPERM|ENOENT|ENOTDIR|EISDIR|ELOOP|EIO|ENXIO|EINVAL|EBADF|ENAMETOOLONG)\b|permission denied|no such file|i\/o error|errno|syscall/i;

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lmskit-mcp-upload-root-')));
const root = join(base, 'uploads');
const outside = join(base, 'elsewhere');
const secret = join(outside, 'secret.pdf');
const handout = join(root, 'handout.pdf');
let mock: Mock;

beforeAll(async () => {
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  // Readable by all, as a file the server's user may read but the HTTP client must not get.
  writeFileSync(secret, minimalPdf('The launch codes are 0000.'));
  writeFileSync(handout, minimalPdf('Photosynthesis turns light into sugar.'));
  symlinkSync(handout, join(root, 'same-handout.pdf'));
  symlinkSync(secret, join(root, 'link-out.pdf'));
  symlinkSync(outside, join(root, 'dir-out'));
  spawnSync('mkfifo', [join(root, 'pipe.pdf')]);
  for (const dir of [base, root, outside]) chmodSync(dir, 0o755);
  mock = await startMock();
});
afterAll(async () => {
  await stopAll();
  rmSync(base, { recursive: true, force: true });
});

const uploadsSince = async (mark: Awaited<ReturnType<typeof journalMark>>) =>
  (await mark.since()).filter((e) => e.path.startsWith('/api/v2/chat/source-materials'));

/** The tool's answer to `filePath`, with the path itself replaced, so answers about different paths compare. */
async function refusalOf(client: Client, filePath: string): Promise<string> {
  const result = await call(client, 'upload_source_material', { filePath });
  const text = textOf(result);
  expect(result.isError, `${filePath} should be refused, got ${text}`).toBe(true);
  expect(text, filePath).not.toMatch(OS_ERROR);
  return text.replaceAll(filePath, '<path>');
}

describe('over HTTP, upload_source_material reads only inside --upload-root (the upload root rule)', () => {
  it('without --upload-root, any path is refused with one sentence saying how to enable uploads; nothing is read or sent', async () => {
    const { url } = await startHttpToolServer(mock.url);
    const { client } = await httpClient(url, WRITE_KEY);
    const mark = await journalMark(mock.url);
    const texts = new Set<string>();
    for (const path of [secret, handout, join(outside, 'missing.pdf'), '/etc/passwd'])
      texts.add(await refusalOf(client, path));
    expect(texts.size).toBe(1);
    const [text] = [...texts] as [string];
    expect(text).toContain('--upload-root');
    expect(text).not.toContain('launch codes');
    // One sentence: a single full stop, at its end.
    expect(text).toMatch(/^[^.]+(\.[^\s.][^.]*)*\.$/);
    expect(await uploadsSince(mark)).toEqual([]);
  });

  describe('with --upload-root DIR', () => {
    let client: Client;
    beforeAll(async () => {
      const { url } = await startHttpToolServer(mock.url, ['--upload-root', root]);
      client = (await httpClient(url, WRITE_KEY)).client;
    });

    it('a PDF inside the root is uploaded, and so is one named through a symlink that stays inside it', async () => {
      const mark = await journalMark(mock.url);
      expect((await callOk(client, 'upload_source_material', { filePath: handout })).filename).toBe(
        'handout.pdf',
      );
      await callOk(client, 'upload_source_material', { filePath: join(root, 'same-handout.pdf') });
      expect((await uploadsSince(mark)).filter((e) => e.path.endsWith('/upload')).length).toBe(2);
    });

    it('outside the root, `..`, a symlink out, a missing file, a directory, a FIFO and device or /proc files all get the same refusal, no OS error text, nothing sent', async () => {
      const mark = await journalMark(mock.url);
      const paths = [
        secret,
        `${root}/../${basename(outside)}/secret.pdf`,
        join(root, 'link-out.pdf'),
        join(root, 'dir-out', 'secret.pdf'),
        join(root, 'missing.pdf'),
        join(outside, 'missing.pdf'),
        join(root, 'sub'),
        join(root, 'pipe.pdf'),
        '/dev/zero',
        '/proc/1/environ',
        '/proc/self/mem',
        '/etc/shadow',
      ];
      const texts = new Map<string, string[]>();
      for (const path of paths) {
        const text = await refusalOf(client, path);
        texts.set(text, [...(texts.get(text) ?? []), path]);
      }
      expect([...texts.values()], 'one refusal for every path').toHaveLength(1);
      const [text] = [...texts.keys()] as [string];
      expect(text).not.toContain('launch codes');
      expect(text).toContain(root);
      expect(await uploadsSince(mark)).toEqual([]);
    });
  });

  it.skipIf(ROOT_USER && !NOBODY_RUNS_KIT)(
    'a file inside the root that the server cannot read gets that same refusal, not EACCES',
    async () => {
      const locked = join(root, 'locked.pdf');
      writeFileSync(locked, minimalPdf('Only the owner may read this.'));
      chmodSync(locked, 0);
      if (ROOT_USER) chownSync(locked, 0, 0);
      const { url } = await startHttpToolServer(
        mock.url,
        ['--upload-root', root],
        '127.0.0.1',
        ROOT_USER ? NOBODY : {},
      );
      const { client } = await httpClient(url, WRITE_KEY);
      const unreadable = await refusalOf(client, locked);
      expect(await refusalOf(client, join(root, 'missing.pdf'))).toBe(unreadable);
      expect(await refusalOf(client, secret)).toBe(unreadable);
    },
  );

  it('--upload-root that is not a directory stops the start with one sentence and exit 2', async () => {
    for (const dir of [join(base, 'no-such-dir'), handout]) {
      const { code, output } = await runLmskit(['mcp', '--http', '--port', '0', '--upload-root', dir]);
      expect(code, output).toBe(2);
      expect(output.split('\n')[0]).toMatch(/--upload-root/);
      expect(output).toContain(dir);
      expect(output).not.toMatch(OS_ERROR);
    }
  });
});

describe('over stdio, paths work as before, without OS error text (the upload root rule)', () => {
  it('a PDF anywhere the user can read is uploaded; /proc files and a FIFO are refused with a sentence, not an OS error', async () => {
    const { client } = await stdioClient(mock.url, WRITE_KEY);
    expect((await callOk(client, 'upload_source_material', { filePath: secret })).filename).toBe(
      'secret.pdf',
    );
    for (const path of ['/proc/1/environ', '/proc/self/mem', join(root, 'pipe.pdf'), '/dev/zero']) {
      const text = await callFails(client, 'upload_source_material', { filePath: path }).catch(
        (error: Error) => error.message,
      );
      expect(text, path).not.toMatch(OS_ERROR);
    }
  });
});
