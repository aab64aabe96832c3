// Files the suite uploads, one of each type seed 000 accepts ("Upload constraints: PDF, DOC, DOCX,
// PNG, JPG, GIF, WebP"), made here so that no binary fixture has to be shipped. Each is a valid file
// of its type and as small as that allows: the documents carry a line of text (what a deployment
// extracts), the images are one pixel (a deployment may find no text in them).
import { deflateSync } from 'node:zlib';

export function minimalPdf(text: string): Buffer {
  const safe = text.replace(/[()\\]/g, '');
  const stream = `BT /F1 12 Tf 20 100 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

// --- CRC-32 (ZIP, PNG), computed here: zlib.crc32 is newer than some Node 20 releases ---

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A ZIP archive of the given entries, stored (not compressed). */
function zip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const fileName = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    // version needed, flags, method 0 (stored), time, date, crc, sizes, name length, extra length
    const common = [u16(20), u16(0), u16(0), u16(0), u16(0x21), u32(crc), u32(data.length), u32(data.length)];
    const local = Buffer.concat([u32(0x04034b50), ...common, u16(fileName.length), u16(0), fileName, data]);
    centrals.push(
      Buffer.concat([
        u32(0x02014b50),
        u16(20),
        ...common,
        u16(fileName.length),
        u16(0), // extra
        u16(0), // comment
        u16(0), // disk
        u16(0), // internal attributes
        u32(0), // external attributes
        u32(offset),
        fileName,
      ]),
    );
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.concat([
    u32(0x06054b50),
    u16(0),
    u16(0),
    u16(entries.length),
    u16(entries.length),
    u32(directory.length),
    u32(offset),
    u16(0),
  ]);
  return Buffer.concat([...locals, directory, end]);
}

/** A Word document (DOCX): the three parts a WordprocessingML package needs, one paragraph of text. */
export function minimalDocx(text: string): Buffer {
  const part = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
  return zip([
    {
      name: '[Content_Types].xml',
      data: part(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: part(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
          '</Relationships>',
      ),
    },
    {
      name: 'word/document.xml',
      data: part(
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
          `<w:body><w:p><w:r><w:t>${xmlText(text)}</w:t></w:r></w:p></w:body></w:document>`,
      ),
    },
  ]);
}

// --- DOC: a Word 97-2003 binary document in an OLE2 compound file ([MS-CFB], [MS-DOC]) ---

const ENDOFCHAIN = 0xfffffffe;
const FATSECT = 0xfffffffd;
const NOSTREAM = 0xffffffff;

/**
 * A compound file (version 3, 512-byte sectors) holding small streams (each under the 4096-byte
 * cutoff, so all in the mini stream): sector 0 the FAT, 1 the directory, 2 the mini FAT, then the
 * mini stream. The streams are siblings under the root entry, the first the root of their tree.
 */
function compoundFile(streams: { name: string; data: Buffer }[], rootClsid: Buffer): Buffer {
  const SECTOR = 512;
  const MINI = 64;
  if (streams.length > 3) throw new Error('one directory sector holds the root and three streams');
  // The mini stream: each stream in whole mini sectors, chained in the mini FAT.
  const miniFat: number[] = [];
  const starts: number[] = [];
  const parts: Buffer[] = [];
  for (const { data } of streams) {
    if (data.length >= 4096) throw new Error('a stream of 4096 bytes or more does not go in the mini stream');
    const sectors = Math.max(1, Math.ceil(data.length / MINI));
    starts.push(miniFat.length);
    for (let i = 0; i < sectors; i++) miniFat.push(i === sectors - 1 ? ENDOFCHAIN : miniFat.length + 1);
    parts.push(data, Buffer.alloc(sectors * MINI - data.length));
  }
  if (miniFat.length > SECTOR / 4) throw new Error('one mini FAT sector holds 128 mini sectors');
  const miniStream = Buffer.concat(parts);
  const containerSectors = Math.ceil(miniStream.length / SECTOR);
  const container = Buffer.concat([miniStream, Buffer.alloc(containerSectors * SECTOR - miniStream.length)]);

  const sectorOf = (values: number[]) => {
    const b = Buffer.alloc(SECTOR, 0xff); // unused entries: FREESECT (0xffffffff)
    values.forEach((v, i) => {
      b.writeUInt32LE(v >>> 0, i * 4);
    });
    return b;
  };
  const fat = sectorOf([
    FATSECT,
    ENDOFCHAIN,
    ENDOFCHAIN,
    ...Array.from({ length: containerSectors }, (_, i) => (i === containerSectors - 1 ? ENDOFCHAIN : 4 + i)),
  ]);

  const entry = (
    name: string,
    type: number,
    color: number,
    left: number,
    right: number,
    child: number,
    start: number,
    size: number,
    clsid?: Buffer,
  ) => {
    const e = Buffer.alloc(128);
    if (type) {
      e.write(name, 0, 'utf16le');
      e.writeUInt16LE((name.length + 1) * 2, 64);
    }
    e.writeUInt8(type, 66);
    e.writeUInt8(color, 67);
    e.writeUInt32LE(left, 68);
    e.writeUInt32LE(right, 72);
    e.writeUInt32LE(child, 76);
    clsid?.copy(e, 80);
    e.writeUInt32LE(start, 116);
    e.writeUInt32LE(size, 120);
    return e;
  };
  // Siblings ordered by name length, then name: a left-leaning chain from the first stream.
  const order = streams
    .map((s, i) => ({ ...s, index: i + 1 }))
    .sort(
      (a, b) => a.name.length - b.name.length || a.name.toUpperCase().localeCompare(b.name.toUpperCase()),
    );
  const treeRoot = order.at(-1)?.index ?? NOSTREAM;
  const leftOf = new Map(
    order.map((s, i) => [s.index, i > 0 ? (order[i - 1]?.index ?? NOSTREAM) : NOSTREAM]),
  );
  const directory = Buffer.concat([
    entry('Root Entry', 5, 1, NOSTREAM, NOSTREAM, treeRoot, 3, miniStream.length, rootClsid),
    ...streams.map((s, i) =>
      entry(
        s.name,
        2,
        i + 1 === treeRoot ? 1 : 0,
        leftOf.get(i + 1) ?? NOSTREAM,
        NOSTREAM,
        NOSTREAM,
        starts[i] as number,
        s.data.length,
      ),
    ),
    ...Array.from({ length: 3 - streams.length }, () => entry('', 0, 0, NOSTREAM, NOSTREAM, NOSTREAM, 0, 0)),
  ]);

  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x003e, 24); // minor version
  header.writeUInt16LE(0x0003, 26); // major version 3
  header.writeUInt16LE(0xfffe, 28); // little-endian
  header.writeUInt16LE(9, 30); // 512-byte sectors
  header.writeUInt16LE(6, 32); // 64-byte mini sectors
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(1, 48); // first directory sector
  header.writeUInt32LE(4096, 56); // mini stream cutoff
  header.writeUInt32LE(2, 60); // first mini FAT sector
  header.writeUInt32LE(1, 64); // mini FAT sectors
  header.writeUInt32LE(ENDOFCHAIN, 68); // first DIFAT sector: none
  header.writeUInt32LE(0, 72); // DIFAT sectors
  header.writeUInt32LE(0, 76); // DIFAT[0]: the FAT is sector 0
  header.fill(0xff, 80);
  return Buffer.concat([header, fat, directory, sectorOf(miniFat), container]);
}

/**
 * A Word 97-2003 document (DOC): a File Information Block, the text (8-bit, one paragraph) and, in the
 * table stream, the piece table that points at it — what a reader needs to find the text. Formatting,
 * styles and fonts are left out.
 */
export function minimalDoc(text: string): Buffer {
  const chars = Buffer.from(`${text.replace(/[^\x20-\x7e]/g, ' ')}\r`, 'latin1');
  const TEXT_AT = 1024;
  const word = Buffer.alloc(TEXT_AT + chars.length);
  // FibBase
  word.writeUInt16LE(0xa5ec, 0); // wIdent
  word.writeUInt16LE(0x00c1, 2); // nFib: Word 97
  word.writeUInt16LE(0x0409, 6); // lid: English (US)
  word.writeUInt16LE(0x1200, 10); // fWhichTblStm (1Table), fExtChar
  word.writeUInt16LE(0x00bf, 12); // nFibBack
  word.writeUInt16LE(14, 32); // csw
  word.writeUInt16LE(22, 62); // cslw
  word.writeUInt32LE(word.length, 64); // fibRgLw.cbMac
  word.writeUInt32LE(chars.length, 64 + 3 * 4); // fibRgLw.ccpText
  word.writeUInt16LE(0x005d, 152); // cbRgFcLcb: FibRgFcLcb97
  // The piece table: one piece, all the text, 8-bit ("compressed") at TEXT_AT.
  const clx = Buffer.concat([
    Buffer.from([0x02]), // Pcdt
    u32(16),
    u32(0),
    u32(chars.length),
    u16(0),
    u32((TEXT_AT * 2) | 0x40000000),
    u16(0),
  ]);
  const CLX = 154 + 33 * 8; // fibRgFcLcbBlob, pair 33: fcClx, lcbClx
  word.writeUInt32LE(0, CLX);
  word.writeUInt32LE(clx.length, CLX + 4);
  // cswNew (0) at 898 is already zero.
  chars.copy(word, TEXT_AT);
  // The CLSID of a Word document: {00020906-0000-0000-C000-000000000046}.
  const clsid = Buffer.from('0609020000000000c000000000000046', 'hex');
  return compoundFile(
    [
      { name: 'WordDocument', data: word },
      { name: '1Table', data: clx },
    ],
    clsid,
  );
}

// --- Images: one pixel each ---

/** A PNG of one grey pixel. */
export function minimalPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 0x80]))), // filter none, one grey pixel
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A baseline JPEG of one grey pixel: one component, a quantisation table of ones, Huffman tables of
 * one code each, and a scan whose only block is "DC difference 0, end of block".
 */
export function minimalJpeg(): Buffer {
  const segment = (marker: number, data: number[]) => [
    0xff,
    marker,
    (data.length + 2) >> 8,
    (data.length + 2) & 0xff,
    ...data,
  ];
  const oneCode = (tableClass: number) => [tableClass << 4, 1, ...Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...segment(0xdb, [0x00, ...Array(64).fill(1)]), // DQT
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0: 8 bits, 1x1, one component
    ...segment(0xc4, oneCode(0)), // DHT: DC table 0, code "0" for category 0
    ...segment(0xc4, oneCode(1)), // DHT: AC table 0, code "0" for end of block
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // "0" (DC 0), "0" (end of block), padded with ones
    0xff,
    0xd9, // EOI
  ]);
}

/** A GIF89a of one pixel: a two-colour table and the LZW codes clear, 0, end. */
export function minimalGif(): Buffer {
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    1,
    0,
    1,
    0, // 1x1
    0x80,
    0,
    0, // global colour table of 2
    0,
    0,
    0,
    0xff,
    0xff,
    0xff,
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0, // image descriptor
    2,
    2,
    0x44,
    0x01,
    0, // LZW minimum code size 2, one sub-block
    0x3b, // trailer
  ]);
}

/**
 * A lossless WebP (VP8L) of one pixel: no transforms, no colour cache, five simple prefix codes of one
 * symbol each (green 0, red 0, blue 0, alpha 255, distance 0), so the pixel itself takes no bits.
 */
export function minimalWebp(): Buffer {
  const vp8l = Buffer.from([0x2f, 0, 0, 0, 0, 0x88, 0x88, 0xfe, 0x07]);
  const padded = Buffer.concat([vp8l, Buffer.alloc(vp8l.length % 2)]);
  const chunk = Buffer.concat([Buffer.from('VP8L', 'latin1'), u32(vp8l.length), padded]);
  return Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    u32(4 + chunk.length),
    Buffer.from('WEBP', 'latin1'),
    chunk,
  ]);
}

/** One file of each type seed 000 accepts, with its usual name and media type. */
export const SOURCE_FILES: { type: string; name: string; mime: string; make: (text: string) => Buffer }[] = [
  { type: 'PDF', name: 'source.pdf', mime: 'application/pdf', make: minimalPdf },
  { type: 'DOC', name: 'source.doc', mime: 'application/msword', make: minimalDoc },
  {
    type: 'DOCX',
    name: 'source.docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    make: minimalDocx,
  },
  { type: 'PNG', name: 'source.png', mime: 'image/png', make: minimalPng },
  { type: 'JPG', name: 'source.jpg', mime: 'image/jpeg', make: minimalJpeg },
  { type: 'GIF', name: 'source.gif', mime: 'image/gif', make: minimalGif },
  { type: 'WebP', name: 'source.webp', mime: 'image/webp', make: minimalWebp },
];
