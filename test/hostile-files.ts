// Files that expand far beyond their size, made in the tests so that nothing large is committed: a
// DOCX whose XML inflates to any size (a zip bomb), a PDF of any number of pages, a PDF with one Flate
// stream inflating to any size. Built with zlib, which compresses a hundred megabytes in a second.
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

/** A zip archive of the given parts, each deflated; `declare` may make the directory lie about a size. */
export function zip(
  parts: [string, Buffer][],
  declare: (name: string, size: number) => number = (_, s) => s,
) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of parts) {
    const packed = deflateRawSync(data, { level: 9 });
    const nameBytes = Buffer.from(name);
    const header = (central: boolean) => {
      const b = Buffer.alloc(central ? 46 : 30);
      b.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
      const o = central ? 2 : 0; // a central header has "version made by" before the common fields
      b.writeUInt16LE(20, 4 + o);
      b.writeUInt16LE(8, 8 + o); // deflate
      b.writeUInt32LE(crc32(data), 14 + o);
      b.writeUInt32LE(packed.length, 18 + o);
      b.writeUInt32LE(declare(name, data.length), 22 + o);
      b.writeUInt16LE(nameBytes.length, 26 + o);
      if (central) b.writeUInt32LE(offset, 42);
      return Buffer.concat([b, nameBytes]);
    };
    centrals.push(header(true));
    const local = Buffer.concat([header(false), packed]);
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const PARAGRAPH =
  '<w:p><w:r><w:t>Fire doors stay closed and exits stay clear at all times.</w:t></w:r></w:p>';
/** Characters of text one PARAGRAPH holds. */
export const PARAGRAPH_TEXT = 'Fire doors stay closed and exits stay clear at all times.'.length;

/** A DOCX whose word/document.xml holds `paragraphs` paragraphs (about 90 bytes of XML each). */
export function docx(paragraphs: number, declare?: (name: string, size: number) => number): Buffer {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
  const tail = '</w:body></w:document>';
  const body = Buffer.alloc(paragraphs * PARAGRAPH.length, PARAGRAPH);
  return zip(
    [
      ['[Content_Types].xml', Buffer.from(CONTENT_TYPES)],
      ['_rels/.rels', Buffer.from(RELS)],
      ['word/document.xml', Buffer.concat([Buffer.from(head), body, Buffer.from(tail)])],
    ],
    declare,
  );
}

/** A DOCX whose document.xml inflates to about `bytes`. */
export const docxOfXmlBytes = (bytes: number) => docx(Math.ceil(bytes / PARAGRAPH.length));

/** A DOCX whose one paragraph sits inside `levels` nested tables: three XML elements a level. */
export function docxOfNestedTables(levels: number): Buffer {
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
    '<w:tbl><w:tr><w:tc>'.repeat(levels) +
    PARAGRAPH +
    '</w:tc></w:tr></w:tbl>'.repeat(levels) +
    '</w:body></w:document>';
  return zip([
    ['[Content_Types].xml', Buffer.from(CONTENT_TYPES)],
    ['_rels/.rels', Buffer.from(RELS)],
    ['word/document.xml', Buffer.from(xml)],
  ]);
}

/** A PDF of the given objects (numbered from 1, the catalog first), with a correct cross-reference table. */
function pdf(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), o, Buffer.from('\nendobj\n')]);
    parts.push(b);
    length += b.length;
  });
  const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

const FONT = Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
const page = (contents: number) =>
  Buffer.from(
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
  );
const stream = (data: Buffer, dict = '') =>
  Buffer.concat([
    Buffer.from(`<< /Length ${data.length}${dict} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);

/** A PDF of `pages` pages, each with a line of `text` (numbered). */
export function pdfOfPages(pages: number, text = 'Evacuation route'): Buffer {
  const objects: Buffer[] = [Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'), Buffer.alloc(0), FONT];
  const kids: string[] = [];
  for (let i = 0; i < pages; i++) {
    objects.push(stream(Buffer.from(`BT /F1 12 Tf 40 700 Td (${text} ${i + 1}) Tj ET`)));
    objects.push(page(objects.length));
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = Buffer.from(`<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`);
  return pdf(objects);
}

/** A one-page PDF whose content stream inflates to `bytes` of text-drawing operators. */
export function pdfOfFlateBytes(bytes: number): Buffer {
  const line = 'BT /F1 12 Tf 40 700 Td (Keep the exits clear) Tj ET\n';
  const content = deflateSync(Buffer.alloc(bytes, line), { level: 9 });
  return pdf([
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [4 0 R] /Count 1 >>'),
    FONT,
    page(5),
    stream(content, ' /Filter /FlateDecode'),
  ]);
}
