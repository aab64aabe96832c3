// Source material for AI generation (seed 000, upload_source_material): the file type is told by
// its content, not its name, and text is really extracted — from PDF with pdf.js, from DOCX with
// mammoth — then cut into chunks, as the platform "extracts and embeds" them.
//
// A file is the client's to choose, and a few kilobytes can expand to gigabytes or thousands of
// pages. So extraction runs in a worker thread (extract-sandbox.ts) with a heap limit and a
// wall-clock budget, checks how far the file expands before parsing it, and stops at the limits of
// the contract's `x-extraction-limits`; the server's own thread only hands the file over and reads
// the answer. At most `concurrency` workers run at once, and a few uploads wait for a turn.
import { Worker } from 'node:worker_threads';
import type { AllowedType } from '../../lib/file-types.ts';

export { ALLOWED_TYPES, type AllowedType, detectType, MAX_UPLOAD_BYTES } from '../../lib/file-types.ts';

/** The limits of `x-extraction-limits` (openapi/v2, the upload operation). */
export interface ExtractionLimits {
  textCharacters: number;
  docxPartsBytes: number;
  docxXmlBytes: number;
  /** Deeper than this, a DOCX's XML is not read (400): the parser recurses once per level. */
  docxXmlDepth: number;
  pdfPages: number;
  pdfStreamBytes: number;
  seconds: number;
  memoryMb: number;
  storedTextCharacters: number;
}

export interface WorkerTask {
  data: Uint8Array;
  type: AllowedType;
  limits: ExtractionLimits;
}

/** The chunks of text, or which limit the file passed, or why it cannot be read at all. */
export type WorkerAnswer = { chunks: string[] } | { overLimit: string } | { unreadable: string };
export type Extraction = WorkerAnswer | { busy: true };

/** A `.js` file that loads the TypeScript sandbox through tsx, wherever the package is installed. */
const WORKER = new URL('./extract-worker.js', import.meta.url);

const HAS_TEXT = new Set<AllowedType>([
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
]);

export class Extractor {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limits: ExtractionLimits,
    private readonly concurrency = 2,
    private readonly queue = 8,
  ) {}

  /** The chunks of text of a file of a known type; images carry none (no OCR in the mock). */
  async extract(data: Buffer, type: AllowedType): Promise<Extraction> {
    if (!HAS_TEXT.has(type)) return { chunks: [] };
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) return { busy: true };
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await this.inWorker(data, type);
    } finally {
      // The slot passes straight to the next upload waiting, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private inWorker(data: Buffer, type: AllowedType): Promise<WorkerAnswer> {
    const { limits } = this;
    return new Promise((resolve) => {
      const worker = new Worker(WORKER, {
        resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
        stdout: true,
        stderr: true,
      });
      // What the parsers print is of no use to anyone; read and dropped so it cannot pile up.
      worker.stdout.resume();
      worker.stderr.resume();
      let settled = false;
      const settle = (answer: WorkerAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        resolve(answer);
      };
      const timer = setTimeout(
        () => settle({ overLimit: `it takes longer than ${limits.seconds} s to read` }),
        limits.seconds * 1000,
      );
      worker.once('message', settle);
      worker.once('error', (error: NodeJS.ErrnoException) =>
        settle(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { overLimit: `it needs more than ${limits.memoryMb} MB of memory to read` }
            : { unreadable: error.message },
        ),
      );
      worker.once('exit', (code) => settle({ unreadable: `the extraction stopped (exit code ${code})` }));
      // Handed over without a copy when the buffer owns its memory (small ones share a pool).
      const owned = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
      const bytes = owned ? new Uint8Array(data.buffer) : new Uint8Array(data);
      const task: WorkerTask = { data: bytes, type, limits };
      worker.postMessage(task, [bytes.buffer as ArrayBuffer]);
    });
  }
}
