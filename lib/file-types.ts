// The source-material file types of seed 000 ("Upload constraints: PDF, DOC, DOCX, PNG, JPG, GIF,
// WebP; 20 MB maximum per file"), told apart by content. Shared by the mock, which enforces them,
// and the MCP tool server, which checks a file before sending it.

export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export const ALLOWED_TYPES = {
  'application/pdf': 'PDF',
  'application/msword': 'DOC',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'image/png': 'PNG',
  'image/jpeg': 'JPG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
} as const;
export type AllowedType = keyof typeof ALLOWED_TYPES;

const startsWith = (data: Buffer, bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);

/** The type of a file by its first bytes (magic numbers), or null when it is none of the allowed ones. */
export function detectType(data: Buffer): AllowedType | null {
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'; // %PDF-
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, [0x47, 0x49, 0x46, 0x38])) return 'image/gif'; // GIF8
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8))
    return 'image/webp';
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'application/msword'; // OLE2 compound file
  // DOCX is a ZIP whose entries include word/document.xml (names are stored uncompressed).
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04]) && data.includes('word/document.xml')) {
    return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  }
  return null;
}
