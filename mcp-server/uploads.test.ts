// Which files upload_source_material reads (uploads.ts): any path over stdio, only regular files
// inside the upload root over HTTP, nothing without one; one refusal for every path it will not
// read, and never the operating system's error text.
import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { minimalPdf } from '../conformance/fixtures.ts';
import {
  ANY_PATH,
  isInside,
  readUpload,
  UPLOADS_OFF,
  type UploadAccess,
  uploadRootOf,
  uploadsOffMessage,
} from './uploads.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lmskit-uploads-')));
const root = join(base, 'root');
const outside = join(base, 'outside');
mkdirSync(join(root, 'sub'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(root, 'a.pdf'), minimalPdf('inside'));
writeFileSync(join(outside, 'b.pdf'), minimalPdf('outside'));
writeFileSync(join(root, 'notes.pdf'), 'plain text');
writeFileSync(join(root, 'big.pdf'), '%PDF-1.4\n');
truncateSync(join(root, 'big.pdf'), 21 * 1024 * 1024);
symlinkSync(join(outside, 'b.pdf'), join(root, 'out.pdf'));
symlinkSync(join(root, 'a.pdf'), join(root, 'in.pdf'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const INSIDE: UploadAccess = { kind: 'inside', root };
const read = async (path: string, access: UploadAccess) => readUpload(path, access);

describe('isInside', () => {
  it('is true strictly below the root, false for the root itself, a sibling with its name as prefix, and parents', () => {
    expect(isInside('/srv/up', '/srv/up/a.pdf')).toBe(true);
    expect(isInside('/srv/up', '/srv/up/x/..b')).toBe(true);
    expect(isInside('/srv/up', '/srv/up')).toBe(false);
    expect(isInside('/srv/up', '/srv/upload/a.pdf')).toBe(false);
    expect(isInside('/srv/up', '/srv/a.pdf')).toBe(false);
    expect(isInside('/srv/up', '/')).toBe(false);
  });
});

describe('readUpload', () => {
  it('inside the root: a PDF is read, also through a symlink that stays inside', async () => {
    for (const path of [join(root, 'a.pdf'), join(root, 'in.pdf')]) {
      const file = await read(path, INSIDE);
      expect(typeof file === 'string' ? file : file.type).toBe('application/pdf');
    }
  });

  it('inside the root: one refusal, naming the root, for outside, `..`, symlink out, missing, directory, device', async () => {
    const paths = [
      join(outside, 'b.pdf'),
      `${root}/../outside/b.pdf`,
      join(root, 'out.pdf'),
      join(root, 'missing.pdf'),
      join(root, 'sub'),
      '/dev/zero',
      '/proc/self/mem',
    ];
    const answers = await Promise.all(
      paths.map(async (p) => String(await read(p, INSIDE)).replace(p, '<p>')),
    );
    expect(new Set(answers)).toEqual(
      new Set([
        `No file at <p> that this tool server can read: over HTTP it reads only regular files inside its upload root ${root}.`,
      ]),
    );
  });

  it('inside the root, the content and size rules of the seed still apply', async () => {
    expect(await read(join(root, 'notes.pdf'), INSIDE)).toMatch(/is not a PDF, DOC, DOCX/);
    expect(await read(join(root, 'big.pdf'), INSIDE)).toMatch(/is 22020096 bytes; the limit is 20 MB/);
  });

  it('any path (stdio): a file outside any root is read; /proc/self/mem (EIO on read) is refused without the OS error', async () => {
    const file = await read(join(outside, 'b.pdf'), ANY_PATH);
    expect(typeof file).not.toBe('string');
    expect(await read('/proc/self/mem', ANY_PATH)).toBe(
      'No file at /proc/self/mem that this tool server can read.',
    );
  });

  it('off (HTTP without --upload-root): every path is refused with the sentence that says how to enable uploads', async () => {
    expect(await read(join(root, 'a.pdf'), UPLOADS_OFF)).toBe(uploadsOffMessage);
    expect(uploadsOffMessage).toContain('--upload-root DIR');
  });

  it('a relative path is refused as such, before anything else', async () => {
    expect(await read('a.pdf', INSIDE)).toBe('filePath must be an absolute path; got "a.pdf".');
  });
});

describe('uploadRootOf', () => {
  it('answers the real path of a directory, and refuses a file or a missing path in one sentence', () => {
    expect(uploadRootOf(`${root}/sub/..`)).toBe(root);
    for (const bad of [join(root, 'a.pdf'), join(base, 'none')])
      expect(() => uploadRootOf(bad)).toThrow(
        `--upload-root takes a directory the tool server can read, and ${bad} is not one`,
      );
  });
});
