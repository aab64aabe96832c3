// Entry of the extraction worker thread where the sandbox has no bundle (extract.ts: `LMSKIT_TSX`, or
// no bundle could be made or it was removed meanwhile). A worker does not inherit the loader of the thread that
// starts it, so this plain JavaScript file registers tsx (resolved next to this file, wherever the
// package is installed) and then loads the TypeScript sandbox. The parsers are plain JavaScript and
// large: they are loaded first, so tsx's loader does not look at them again on every upload.
import { register } from 'tsx/esm/api';

await import('mammoth');
await import('pdfjs-dist/legacy/build/pdf.mjs');
// pdf.js runs its parser in this same thread when it finds it here, instead of importing it later.
globalThis.pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
register();
await import('./extract-sandbox.ts');
