// What an upload's text extraction costs (docs/mock.md, uploads; mock/ai/extract.ts): each PDF or DOCX
// is read in a fresh worker thread, whose start is most of its cost. Prints the median CPU time (every
// thread of this process) and wall time of RUNS extractions of a one-line PDF and DOCX, with the worker
// started from the sandbox's bundle (as the mock does) and through tsx (LMSKIT_TSX=1, as it did before).
// Run with `node --import tsx bench/extract-start.ts` (and again with LMSKIT_TSX=1). A measurement, not a test.
import { minimalDocx, minimalPdf } from '../conformance/fixtures.ts';
import { Extractor } from '../mock/ai/extract.ts';
import { median } from './stats.ts';

const RUNS = Number(process.env.RUNS ?? 10);
const LIMITS = {
  textCharacters: 1_000_000,
  docxPartsBytes: 50_000_000,
  docxXmlBytes: 50_000_000,
  docxXmlDepth: 200,
  pdfPages: 100,
  pdfStreamBytes: 50_000_000,
  seconds: 30,
  memoryMb: 256,
  storedTextCharacters: 1_000_000,
};
const FILES = [
  ['PDF', 'application/pdf', minimalPdf('Fire safety for warehouse staff')],
  [
    'DOCX',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    minimalDocx('Fire safety for warehouse staff'),
  ],
] as const;

const extractor = new Extractor(LIMITS, 1);
// The first extraction makes the bundle (once per change of the sandbox's sources): not measured.
await extractor.extract(FILES[0][2], FILES[0][1]);
console.log(`worker from ${process.env.LMSKIT_TSX ? 'tsx' : 'the bundle'}, ${RUNS} runs each`);
for (const [name, type, data] of FILES) {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const answer = await extractor.extract(data, type);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (!('chunks' in answer)) throw new Error(`${name}: ${JSON.stringify(answer)}`);
  }
  console.log(`${name}: ${median(cpu).toFixed(0)} ms CPU, ${median(wall).toFixed(0)} ms wall (medians)`);
}
