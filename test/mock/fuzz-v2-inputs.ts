// Inputs for the v2 fuzz test: what the v1 inputs (fuzz-inputs.ts) do not cover —
// v2's names for platform records, query parameters judged by their own schemas, references that
// must exist, and hand-built multipart bodies for the upload. The generation and the schema-driven
// mutations themselves are fuzz-inputs.ts's; nothing here talks to the mock.

import { minimalPdf } from '../../conformance/fixtures.ts';
import { MAX_UPLOAD_BYTES } from '../../lib/file-types.ts';
import {
  type BodyCase,
  bodyCases,
  type Expectation,
  type Node,
  ODD_STRINGS,
  type Parameter,
} from './fuzz-inputs.ts';

/** The platform records a v2 parameter or body property can name. */
export type Kind = 'user' | 'group' | 'course' | 'chain' | 'question' | 'lesson' | 'job' | 'session' | 'file';

const KIND_WORDS: [Kind, RegExp][] = [
  ['user', /user|author/],
  ['group', /group/],
  ['chain', /chain/],
  ['course', /course/],
  ['question', /question/],
  ['lesson', /lesson/],
  ['job', /job/],
  ['session', /session/],
  ['file', /^file/],
];

/** Which record a parameter or property names, from its name (`userId`, `groups`, `fields[author]`, `jobId`). */
export function kindOfName(name: string): Kind | null {
  const n = name.toLowerCase();
  return KIND_WORDS.find(([, re]) => re.test(n))?.[0] ?? null;
}

/**
 * Whether a value of this parameter or property must name an existing record (unknown → 404): every
 * path id and body reference; of the query parameters, those that are not `fields[...]` filters (an
 * audit filter on an unknown author simply matches nothing).
 */
export const mustExist = (name: string, where: 'path' | 'query' | 'body') =>
  kindOfName(name) !== null && !(where === 'query' && name.startsWith('fields['));

// ---------------------------------------------------------------------------------------------
// What a schema says about a value (as the contract router sees it: query strings coerced first)

const typesOf = (schema: Node): string[] => ([] as string[]).concat(schema.type ?? []);

/** The contract router's coercion of a query or path string (mock/http/contract.ts). */
function coerced(raw: string, schema: Node): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(raw))
    return Number(raw);
  return raw;
}

function schemaAccepts(schema: Node, v: unknown): boolean {
  const types = typesOf(schema);
  if (typeof v === 'number') {
    // JSON Schema numbers are finite: ±Infinity is no integer, whatever a lax validator says.
    if (!Number.isFinite(v)) return false;
    if (!(types.includes('number') || (types.includes('integer') && Number.isInteger(v)))) return false;
    if (schema.minimum !== undefined && v < schema.minimum) return false;
    if (schema.maximum !== undefined && v > schema.maximum) return false;
    return !schema.enum || schema.enum.includes(v);
  }
  if (typeof v !== 'string' || !types.includes('string')) return false;
  if (schema.minLength !== undefined && [...v].length < schema.minLength) return false;
  if (schema.maxLength !== undefined && [...v].length > schema.maxLength) return false;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(v)) return false;
  return !schema.enum || schema.enum.includes(v);
}

/** Percent-encoding that survives lone surrogates (sent as the invalid UTF-8 of one). */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return s
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('');
  }
};
/** What the server's query parser (`querystring`) makes of an encoded value: invalid UTF-8 becomes U+FFFD. */
function decodeQuery(raw: string): string {
  const text = raw.replaceAll('+', ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    const tokens = text.match(/%[0-9A-Fa-f]{2}|[^%]|%/g) ?? [];
    return Buffer.concat(
      tokens.map((t) =>
        /^%[0-9A-Fa-f]{2}$/.test(t) ? Buffer.from([Number.parseInt(t.slice(1), 16)]) : Buffer.from(t),
      ),
    ).toString();
  }
}

// ---------------------------------------------------------------------------------------------
// Query parameters

export interface QueryCase {
  /** `name label`, stable across runs. */
  id: string;
  expect: Expectation;
  /** The raw (encoded) value, or null for the parameter left out. */
  raw: string | null;
  /** Sent as `name=a&name=b`. */
  repeated?: boolean;
}

/**
 * Bad (and odd) values of one query parameter, each judged by the parameter's own schema after the
 * contract's coercion: what the schema refuses must be refused; a reference to a record that does not
 * exist must be refused too; what the schema allows is a probe (never a 5xx).
 */
export function queryCasesOf(param: Parameter, known: Set<string>): QueryCase[] {
  const { name, schema } = param;
  const types = typesOf(schema);
  const values: [string, string][] = [];
  if (types.includes('integer') || types.includes('number')) {
    values.push(
      ['negative', '-1'],
      ['zero', '0'],
      ['huge 1e20', '1e20'],
      ['huge 99999999999999999999', '99999999999999999999'],
      ['beyond MAX_SAFE_INTEGER', '9007199254740993'],
      ['non-numeric', 'abc'],
      ['non-integer', '1.5'],
      ['hex', '0x10'],
      ['NaN', 'NaN'],
      ['Infinity', 'Infinity'],
      ['trailing space', '1%20'],
      ['plus sign', '%2B1'],
      ['NUL', '%00'],
      ['emoji', '%F0%9F%98%80'],
      ['400 digits', '9'.repeat(400)],
    );
    if (schema.minimum !== undefined)
      values.push([`minimum-1 (${schema.minimum - 1})`, String(schema.minimum - 1)]);
    if (schema.maximum !== undefined)
      values.push([`maximum+1 (${schema.maximum + 1})`, String(schema.maximum + 1)]);
  } else {
    for (const [label, v] of ODD_STRINGS) values.push([label, encode(v)]);
    if (schema.minLength)
      values.push([`minLength-1 (${schema.minLength - 1} chars)`, 'x'.repeat(schema.minLength - 1)]);
    if (schema.pattern !== undefined)
      values.push(
        ['not a date', 'yesterday'],
        ['a date with a space', '2025-01-01%2000:00'],
        ['a Unix time', '1735689600'],
        ['a date with fullwidth digits', encode('２０２５-01-01')],
      );
  }
  if (schema.enum) values.push(['not in enum', '__not_in_enum__']);
  values.push(['empty', '']);

  const judge = (raw: string): Expectation => {
    const value = coerced(decodeQuery(raw), schema);
    if (!schemaAccepts(schema, value)) return 'refused';
    if (mustExist(name, 'query') && !known.has(String(value))) return 'refused';
    return 'probe';
  };
  const cases: QueryCase[] = values.map(([label, raw]) => ({
    id: `${name} ${label}`,
    expect: judge(raw),
    raw,
  }));
  // Two values for one name arrive as an array, which no scalar schema accepts.
  cases.push({ id: `${name} repeated`, expect: 'refused', raw: '1', repeated: true });
  if (param.required) cases.push({ id: `${name} missing (required)`, expect: 'refused', raw: null });
  // Values the schema's pattern lets through but no calendar has: the handler must refuse them.
  if (schema.pattern !== undefined && /\\d\{4\}/.test(schema.pattern))
    cases.push(
      { id: `${name} month 13, day 45`, expect: 'refused', raw: '2025-13-45' },
      { id: `${name} 25 o'clock`, expect: 'refused', raw: '2025-01-01T25:61' },
      { id: `${name} 9999-99-99T99:99:99Z`, expect: 'refused', raw: '9999-99-99T99:99:99Z' },
      { id: `${name} 30 February`, expect: 'probe', raw: '2025-02-30' },
    );
  return cases;
}

/** Path values beyond fuzz-inputs' `pathCases`: near misses of an enum (`leaderboard2` for a statistics scope). */
export function enumPathCases(param: Parameter): [string, string][] {
  const values = (param.schema.enum ?? []) as string[];
  const first = values[0];
  if (first === undefined) return [];
  return [
    ['unknown scope leaderboard2', 'leaderboard2'],
    [`upper case ${first.toUpperCase()}`, first.toUpperCase()],
    [`${first} with a trailing space`, `${first}%20`],
    [`${first} with a NUL`, `${first}%00`],
    [`${first} with a zero-width space`, `${first}%E2%80%8B`],
    [`${first} twice`, `${first}${first}`],
  ];
}

// ---------------------------------------------------------------------------------------------
// Bodies

const valueAt = (body: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .filter(Boolean)
    .reduce((acc: any, k) => (acc === null || acc === undefined ? undefined : acc[k]), body);

/** The property a JSON pointer ends in (`/groups/0` → `groups`). */
const propertyOf = (pointer: string) =>
  pointer
    .split('/')
    .filter((s) => s && !/^\d+$/.test(s))
    .at(-1) ?? '';

/**
 * fuzz-inputs' mutations of an accepted body, with v2's rule for references added: a value the schema
 * allows in a property that names a record (`userId`, `groups`, `sessionId`…) but names none — huge,
 * unknown, odd Unicode — must be refused, not merely survived. Then: unknown ids in place of each
 * reference (alone, and next to a known one, so that a half-applied write shows), and a body that
 * satisfies none of an `anyOf` of required properties.
 */
export function bodyCasesV2(schema: Node, accepted: unknown, known: (kind: Kind) => Set<string>): BodyCase[] {
  const cases = bodyCases(schema, accepted).map((c): BodyCase => {
    const pointer = c.id.split(' ')[0] ?? '';
    const property = propertyOf(pointer);
    const kind = kindOfName(property);
    if (c.expect === 'refusedOrIgnored') return { ...c, expect: 'refused' };
    if (c.expect !== 'probe' || !kind || !mustExist(property, 'body')) return c;
    const v = valueAt(c.body, pointer);
    if ((typeof v === 'number' || typeof v === 'string') && !known(kind).has(String(v)))
      return { ...c, expect: 'refused' };
    return c;
  });
  const base = (accepted ?? {}) as Node;
  const properties = (schema.properties ?? {}) as Record<string, Node>;
  for (const [name, sub] of Object.entries(properties)) {
    const kind = kindOfName(name);
    if (!kind || !mustExist(name, 'body')) continue;
    const isArray = typesOf(sub).includes('array');
    const scalar = isArray ? (sub.items as Node) : sub;
    const unknown: [string, unknown][] = typesOf(scalar).includes('integer')
      ? [
          ['unknown id 424242', 424242],
          ['id 2147483648 (beyond int32)', 2 ** 31],
        ]
      : [
          [`unknown ${kind} id`, `${kind}_999999`],
          [`${kind} id in upper case`, String([...known(kind)][0] ?? '').toUpperCase()],
          [`${kind} id with a trailing space`, `${[...known(kind)][0] ?? ''} `],
        ];
    const knownOne = typesOf(scalar).includes('integer') ? Number([...known(kind)][0]) : [...known(kind)][0];
    for (const [label, v] of unknown) {
      if (known(kind).has(String(v))) continue;
      cases.push({
        id: `/${name} ${label}`,
        expect: 'refused',
        body: { ...base, [name]: isArray ? [v] : v },
      });
      if (isArray)
        cases.push({
          id: `/${name} a known id, then ${label}`,
          expect: 'refused',
          body: { ...base, [name]: [knownOne, v] },
        });
    }
  }
  const alternatives = ((schema.anyOf ?? schema.oneOf ?? []) as Node[]).flatMap(
    (s) => (s.required ?? []) as string[],
  );
  if (alternatives.length) {
    const rest = Object.fromEntries(Object.entries(base).filter(([k]) => !alternatives.includes(k)));
    cases.push({ id: `/ none of ${alternatives.join(', ')} (anyOf)`, expect: 'refused', body: rest });
    cases.push({ id: '/ an empty object (anyOf)', expect: 'refused', body: {} });
  }
  const ids = new Set<string>();
  for (const c of cases) {
    if (ids.has(c.id)) throw new Error(`duplicate fuzz case ${c.id}`);
    ids.add(c.id);
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Multipart (the upload)

export interface Part {
  name: string;
  /** A file part when set (busboy treats a part without a filename as a field). */
  filename?: string;
  contentType?: string;
  data: string | Uint8Array;
  /** Raw header lines instead of the generated ones. */
  rawHeaders?: string;
}

export const BOUNDARY = '----lmskitFuzzBoundary7MA4YWxkTrZu0gW';
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart/form-data body, built by hand so that it can also be built wrong. */
export function multipart(parts: Part[], boundary = BOUNDARY, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const headers =
      p.rawHeaders ??
      `Content-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n${
        p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''
      }`;
    chunks.push(Buffer.from(`--${boundary}\r\n${headers}\r\n`), Buffer.from(p.data), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const b of data) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A ZIP archive of stored (uncompressed) entries. */
function zip(entries: [string, string][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A one-page PDF with real text and a correct cross-reference table. */
const pdf = minimalPdf;

const DOCX_FILES: [string, string][] = [
  [
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  ],
  [
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  ],
  [
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Phishing awareness for new hires: check the sender, hover before you click.</w:t></w:r></w:p></w:body></w:document>',
  ],
];

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

/** A small file of each allowed type, by MIME type (the mock tells the type by these first bytes). */
export const SAMPLE_FILES: Record<string, { filename: string; data: Buffer }> = {
  'application/pdf': { filename: 'phishing.pdf', data: pdf('Phishing awareness for new hires') },
  'application/msword': {
    filename: 'phishing.doc',
    data: bytes(
      [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
      '\u0000\u0000Phishing awareness for new hires\u0000',
    ),
  },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    filename: 'phishing.docx',
    data: zip(DOCX_FILES),
  },
  'image/png': {
    filename: 'diagram.png',
    data: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR fuzz'),
  },
  'image/jpeg': { filename: 'photo.jpg', data: bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF fuzz') },
  'image/gif': { filename: 'anim.gif', data: bytes('GIF89a fuzz') },
  'image/webp': { filename: 'pic.webp', data: bytes('RIFF', [0x10, 0, 0, 0], 'WEBPVP8 fuzz') },
};

export interface UploadCase {
  id: string;
  expect: Expectation;
  /** The exact status a refusal must have (400, 413 or 415). */
  status?: number;
  contentType?: string;
  body?: Buffer | string;
}

/**
 * Bad uploads, built from an accepted one (`file` part + optional `sessionId` field): a missing or
 * misnamed file part, an empty file, types the mock must not take (judged by content), broken
 * documents, a file over 20 MB, bad session ids, and bodies that are not multipart or not well-formed.
 */
export function uploadCases(accepted: Part[]): UploadCase[] {
  const file = accepted.find((p) => p.name === 'file') as Part;
  const session = accepted.find((p) => p.name === 'sessionId');
  const withFile = (f: Partial<Part>) => [{ ...file, ...f }, ...(session ? [session] : [])];
  const withSession = (value: string) => [file, { name: 'sessionId', data: value }];
  const refused = (id: string, status: number, parts: Part[]): UploadCase => ({
    id,
    expect: 'refused',
    status,
    contentType: MULTIPART,
    body: multipart(parts),
  });
  const cases: UploadCase[] = [
    refused('no "file" part (only a sessionId field)', 400, [{ name: 'sessionId', data: 'ses_fuzz' }]),
    refused('no parts at all', 400, []),
    refused('the file in a part named "document"', 400, withFile({ name: 'document' })),
    refused('the file part without a filename (a plain field)', 400, [
      { name: 'file', data: file.data },
      ...(session ? [session] : []),
    ]),
    refused('an empty file', 400, withFile({ data: '' })),
    refused(
      'plain text',
      415,
      withFile({ filename: 'notes.txt', contentType: 'text/plain', data: 'Phishing notes' }),
    ),
    refused(
      'HTML named .pdf and sent as application/pdf',
      415,
      withFile({ filename: 'x.pdf', contentType: 'application/pdf', data: '<html><body>x</body></html>' }),
    ),
    refused(
      'an SVG image',
      415,
      withFile({ filename: 'x.svg', contentType: 'image/svg+xml', data: '<svg/>' }),
    ),
    refused('a Windows executable', 415, withFile({ filename: 'x.exe', data: bytes('MZ', [0x90, 0, 3, 0]) })),
    refused('a ZIP that is not a DOCX', 415, withFile({ filename: 'x.zip', data: zip([['a.txt', 'a']]) })),
    refused(
      'JSON sent as a file',
      415,
      withFile({ filename: 'x.json', contentType: 'application/json', data: '{}' }),
    ),
    refused(
      'a broken PDF (%PDF- then garbage)',
      400,
      withFile({ filename: 'x.pdf', data: '%PDF-1.4\ngarbage' }),
    ),
    refused(
      'a broken DOCX (a ZIP header and the name word/document.xml, nothing else)',
      400,
      withFile({ filename: 'x.docx', data: bytes([0x50, 0x4b, 0x03, 0x04], 'word/document.xml') }),
    ),
    refused(
      `a file of 20 MB + 1 byte (${MAX_UPLOAD_BYTES + 1} bytes)`,
      413,
      withFile({
        filename: 'big.png',
        data: Buffer.concat([
          SAMPLE_FILES['image/png']?.data ?? Buffer.alloc(0),
          Buffer.alloc(MAX_UPLOAD_BYTES + 1),
        ]),
      }),
    ),
    refused('sessionId "a b"', 400, withSession('a b')),
    refused('sessionId of 200 chars', 400, withSession('x'.repeat(200))),
    refused('sessionId of 65 chars', 400, withSession('x'.repeat(65))),
    refused('sessionId "../etc"', 400, withSession('../etc')),
    refused('sessionId "ses_1;drop"', 400, withSession('ses_1;drop')),
    ...ODD_STRINGS.map(([label, v]) => refused(`sessionId ${label}`, 400, withSession(v))),
    {
      id: 'a multipart body whose boundary is not the declared one',
      expect: 'refused',
      status: 400,
      contentType: 'multipart/form-data; boundary=another',
      body: multipart(accepted),
    },
    {
      id: 'a truncated multipart body (no closing boundary)',
      expect: 'refused',
      status: 400,
      contentType: MULTIPART,
      body: multipart(accepted, BOUNDARY, false).subarray(0, -10),
    },
    {
      id: 'multipart/form-data without a boundary',
      expect: 'refused',
      status: 400,
      contentType: 'multipart/form-data',
      body: multipart(accepted),
    },
    {
      id: 'a part with no Content-Disposition',
      expect: 'refused',
      status: 400,
      contentType: MULTIPART,
      body: multipart([{ ...file, rawHeaders: 'Content-Type: image/png\r\n' }]),
    },
    {
      id: 'the multipart body as multipart/mixed',
      expect: 'refused',
      status: 400,
      contentType: `multipart/mixed; boundary=${BOUNDARY}`,
      body: multipart(accepted),
    },
    {
      id: 'the multipart body as text/plain',
      expect: 'refused',
      status: 400,
      contentType: 'text/plain',
      body: multipart(accepted),
    },
    {
      id: 'a JSON body',
      expect: 'refused',
      status: 400,
      contentType: 'application/json',
      body: '{"file":"x"}',
    },
    {
      id: 'malformed JSON',
      expect: 'refused',
      status: 400,
      contentType: 'application/json',
      body: '{"file":',
    },
    {
      id: 'a JSON body over 1 MB',
      expect: 'refused',
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ file: 'x'.repeat(1_100_000) }),
    },
    {
      id: 'a form-urlencoded body',
      expect: 'refused',
      status: 400,
      contentType: 'application/x-www-form-urlencoded',
      body: 'file=x&sessionId=ses_1',
    },
    {
      id: 'an empty body with a multipart content type',
      expect: 'refused',
      status: 400,
      contentType: MULTIPART,
      body: '',
    },
    { id: 'no body and no content type', expect: 'refused', status: 400 },
    // Allowed, if odd: a file name in odd Unicode, a second file, more fields than the parser keeps.
    ...ODD_STRINGS.filter(([label]) => !['empty', '10k chars'].includes(label)).map(
      ([label, v]): UploadCase => ({
        id: `file name ${label}`,
        expect: 'probe',
        contentType: MULTIPART,
        body: multipart(withFile({ filename: v.replaceAll('"', '') })),
      }),
    ),
    {
      id: 'a file name of 10k chars',
      expect: 'probe',
      contentType: MULTIPART,
      body: multipart(withFile({ filename: 'x'.repeat(10_000) })),
    },
    {
      id: 'two file parts',
      expect: 'probe',
      contentType: MULTIPART,
      body: multipart([file, { ...file, filename: 'second.png' }]),
    },
    {
      id: 'ten extra fields',
      expect: 'probe',
      contentType: MULTIPART,
      body: multipart([
        ...Array.from({ length: 10 }, (_, i) => ({ name: `extra${i}`, data: 'x' })),
        file,
        { name: 'sessionId', data: 'ses_extra' },
      ]),
    },
  ];
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Numbers beyond the double range

const BIG = '__fuzz_big_number__';

function* numberSlots(
  schema: Node,
  value: unknown,
  place: (v: unknown) => unknown,
  at: string,
): Generator<[string, unknown]> {
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) yield [at, place(BIG)];
  if (schema.properties) {
    const b = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Node;
    for (const [name, sub] of Object.entries(schema.properties as Record<string, Node>))
      yield* numberSlots(sub, b[name], (v) => place({ ...b, [name]: v }), `${at}/${name}`);
  }
  if (types.includes('array') && schema.items) {
    const b = Array.isArray(value) ? value : [];
    yield* numberSlots(schema.items as Node, b[0], (v) => place([v, ...b.slice(1)]), `${at}/0`);
  }
}

/**
 * JSON texts with a number JSON can write but a double cannot hold (`1e400`, `-1e400`) in each
 * numeric place of an accepted body: `JSON.parse` makes them ±Infinity, which no integer is.
 */
export function bigNumberBodies(schema: Node, accepted: unknown): { id: string; text: string }[] {
  return [...numberSlots(schema, accepted, (v) => v, '')].flatMap(([at, body]) =>
    ['1e400', '-1e400'].map((n) => ({
      id: `${at} ${n} (beyond the double range: ±Infinity once parsed)`,
      text: JSON.stringify(body).replace(`"${BIG}"`, n),
    })),
  );
}
