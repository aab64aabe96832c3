// Source material for AI generation (seed 000, upload_source_material): the file type is told by
// its content, not its name, and text is really extracted — from PDF with pdf.js, from DOCX with
// mammoth — then cut into chunks, as the platform "extracts and embeds" them.
//
// A file is the client's to choose, and a few kilobytes can expand to gigabytes or thousands of
// pages. So extraction runs in a worker thread (extract-sandbox.ts) with a heap limit and a
// wall-clock budget, checks how far the file expands before parsing it, and stops at the limits of
// the contract's `x-extraction-limits`; the server's own thread only hands the file over and reads
// the answer. At most `concurrency` workers run at once, and a few uploads wait for a turn.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AllowedType } from '../../lib/file-types.ts';
import { ROOT } from '../../lib/paths.ts';

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
const TSX_WORKER = new URL('./extract-worker.js', import.meta.url);
const SANDBOX = fileURLToPath(new URL('./extract-sandbox.ts', import.meta.url));
const BUNDLER = pathToFileURL(join(ROOT, 'bin', 'bundle.js')).href;
type Bundled = (root: string, name: string, script: string) => Promise<string | null>;

/**
 * Where a worker starts from: the sandbox bundled into one JavaScript module by esbuild, kept in
 * node_modules/.cache/lmskit as the commands are (bin/bundle.js), else the tsx entry. Each upload gets
 * a fresh worker; an extraction through tsx took about 1.9 s of CPU (tsx's loader and source maps in
 * the worker), one from the bundle 0.2 s for a DOCX and 0.35 s for a PDF (bench/extract-start.ts).
 */
let workerUrl: Promise<URL> | undefined;
function workerEntry(): Promise<URL> {
  workerUrl ??= process.env.LMSKIT_TSX
    ? Promise.resolve(TSX_WORKER)
    : import(BUNDLER)
        .then(({ bundled }: { bundled: Bundled }) => bundled(ROOT, 'extract-sandbox', SANDBOX))
        .then((url) => (url ? new URL(url) : TSX_WORKER))
        .catch(() => TSX_WORKER);
  return workerUrl;
}

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
      const entry = await workerEntry();
      const answer = await this.inWorker(entry, data, type);
      // Another start rebuilt the bundle (its sources changed) and removed this one: tsx, this once.
      if (!('missing' in answer)) return answer;
      workerUrl = undefined;
      const again = await this.inWorker(TSX_WORKER, data, type);
      return 'missing' in again ? { unreadable: 'the extraction could not start' } : again;
    } finally {
      // The slot passes straight to the next upload waiting, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private inWorker(entry: URL, data: Buffer, type: AllowedType): Promise<WorkerAnswer | { missing: true }> {
    const { limits } = this;
    return new Promise((resolve) => {
      const worker = new Worker(entry, {
        resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
        // A worker takes its parent's Node flags by default: `--import tsx` would load tsx into every
        // worker again (about 1 s of CPU), which the bundle does not need.
        ...(entry === TSX_WORKER ? {} : { execArgv: [] }),
        stdout: true,
        stderr: true,
      });
      // What the parsers print is of no use to anyone; read and dropped so it cannot pile up.
      worker.stdout.resume();
      worker.stderr.resume();
      let settled = false;
      const settle = (answer: WorkerAnswer | { missing: true }) => {
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
            : // A worker whose own file is missing says MODULE_NOT_FOUND (an import in it, ERR_…).
              error.code === 'MODULE_NOT_FOUND' && entry !== TSX_WORKER
              ? { missing: true }
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
