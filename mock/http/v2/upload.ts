// POST /chat/source-materials/upload (seed 000, upload_source_material): multipart, one `file` part
// and an optional `sessionId` field. The size limit (20 MB) is enforced while streaming; the type is
// told by the content; the text is extracted, within the contract's `x-extraction-limits`, before the
// upload is recorded.
import busboy from 'busboy';
import type { Request } from 'express';
import {
  ALLOWED_TYPES,
  detectType,
  type ExtractionLimits,
  type Extractor,
  MAX_UPLOAD_BYTES,
} from '../../ai/extract.ts';
import { noteUpload } from '../journal.ts';
import type { Failure } from './pipeline/index.ts';

/** Seconds an upload is asked to wait when every extraction worker is busy and the queue is full. */
const BUSY_RETRY_AFTER = 5;

/** The extraction limits the contract states on the upload operation. */
export function extractionLimits(spec: Record<string, unknown>): ExtractionLimits {
  const paths = spec.paths as Record<string, { post?: Record<string, unknown> }> | undefined;
  const limits = paths?.['/chat/source-materials/upload']?.post?.['x-extraction-limits'];
  if (!limits) throw new Error('the v2 contract states no x-extraction-limits on the upload operation');
  return limits as ExtractionLimits;
}

export interface ReceivedUpload {
  filename: string;
  mimeType: keyof typeof ALLOWED_TYPES;
  size: number;
  chunks: string[];
  sessionId?: string;
}

/** The statuses openapi/v2 documents for a refused upload. */
type UploadFailure = Failure & { status: 400 | 413 | 415 | 503 };
const bad = (
  status: UploadFailure['status'],
  code: UploadFailure['code'],
  message: string,
): UploadFailure => ({
  status,
  code,
  message,
});
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

function readMultipart(req: Request): Promise<{
  file?: { name: string; data: Buffer; truncated: boolean };
  fields: Record<string, string>;
  error?: string;
}> {
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 5 },
      });
    } catch (error) {
      resolve({ fields: {}, error: (error as Error).message });
      return;
    }
    const fields: Record<string, string> = {};
    let file: { name: string; data: Buffer; truncated: boolean } | undefined;
    parser.on('field', (name: string, value: string) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const parts: Buffer[] = [];
      // A body that ends inside the file fails the file's stream with the form's own error, which the
      // parser's 'error' below answers; unheard here, it was an uncaught exception that ended the mock.
      stream.on('error', () => {});
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('close', () => {
        if (name === 'file') {
          file = {
            name: info.filename ?? '',
            data: Buffer.concat(parts),
            truncated: (stream as unknown as { truncated: boolean }).truncated,
          };
          noteUpload(req, { name: file.name, type: info.mimeType, size: file.data.length });
        }
      });
    });
    parser.on('error', (error: Error) => resolve({ fields, error: error.message }));
    parser.on('close', () => resolve({ file, fields }));
    req.pipe(parser);
  });
}

export async function receiveUpload(
  req: Request,
  extractor: Extractor,
): Promise<ReceivedUpload | UploadFailure> {
  if (!req.is('multipart/form-data'))
    return bad(400, 'VALIDATION_ERROR', 'Send the file as multipart/form-data with a part named "file".');
  const { file, fields, error } = await readMultipart(req);
  if (error) return bad(400, 'VALIDATION_ERROR', `Malformed multipart body: ${error}`);
  if (!file) return bad(400, 'VALIDATION_ERROR', 'The multipart body has no part named "file".');
  // busboy stops one byte past its limit, so a file of exactly 20 MB passes (seed 000: "20 MB maximum").
  if (file.truncated || file.data.length > MAX_UPLOAD_BYTES)
    return bad(413, 'FILE_TOO_LARGE', `The file is larger than 20 MB (${MAX_UPLOAD_BYTES} bytes).`);
  if (file.data.length === 0) return bad(400, 'VALIDATION_ERROR', 'The file is empty.');
  if (fields.sessionId !== undefined && !SESSION_ID.test(fields.sessionId)) {
    return bad(400, 'VALIDATION_ERROR', 'sessionId must be 1 to 64 letters, digits, "-" or "_".');
  }
  const mimeType = detectType(file.data);
  if (!mimeType) {
    return bad(
      415,
      'UNSUPPORTED_FILE_TYPE',
      `${file.name || 'The file'} is not a PDF, DOC, DOCX, PNG, JPG, GIF or WebP file (judged by its content).`,
    );
  }
  const size = file.data.length;
  const name = file.name || 'The file';
  const extraction = await extractor.extract(file.data, mimeType);
  if ('busy' in extraction)
    return {
      ...bad(
        503,
        'EXTRACTION_BUSY',
        `Every extraction worker is busy and the queue is full; retry after ${BUSY_RETRY_AFTER}s.`,
      ),
      retryAfter: BUSY_RETRY_AFTER,
    };
  if ('overLimit' in extraction)
    return bad(413, 'EXTRACTION_LIMIT', `${name} is refused: ${extraction.overLimit} (x-extraction-limits).`);
  if ('unreadable' in extraction)
    return bad(
      400,
      'VALIDATION_ERROR',
      `${name} looks like ${ALLOWED_TYPES[mimeType]} but cannot be read: ${extraction.unreadable}`,
    );
  return {
    filename: (file.name || 'upload').slice(0, 255),
    mimeType,
    size,
    chunks: extraction.chunks,
    ...(fields.sessionId !== undefined ? { sessionId: fields.sessionId } : {}),
  };
}
