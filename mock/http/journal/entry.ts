// What the request journal keeps of one request, and its bounds. Recording runs on every request,
// reading rarely: so a request and its answer are kept as they were sent (`Stored`, `Sent`: header
// objects, the answer's chunks) and shaped for reading (`Shown`: headers masked, bodies parsed, the
// verdict worked out) when first read, then kept. The shapes the journal answers with are the admin
// contract's (openapi/admin, Journal*), stated there once.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { components } from '../../../generated/admin.ts';
import type { InputProblem } from '../contract/validate-input.ts';

/** Requests kept by default (`--journal-size`). */
export const DEFAULT_JOURNAL_SIZE = 1000;
/** The most a journal may be asked to hold: each request may keep two bodies of BODY_LIMIT. */
export const MAX_JOURNAL_SIZE = 100_000;
/** Bodies are kept up to this many bytes, then cut with a note (1000 requests × 2 × 32 KB ≤ 64 MB). */
export const BODY_LIMIT = 32 * 1024;

/**
 * The first BODY_LIMIT characters of `text`, copied: a slice of a long string would hold the whole
 * of it in memory for as long as the journal keeps the slice.
 */
export const cut = (text: string) =>
  text.length > BODY_LIMIT ? Buffer.from(text.slice(0, BODY_LIMIT)).toString() : text;

type Schemas = components['schemas'];
export type JournalApi = Schemas['JournalApi'];
export type JournalCaller = Schemas['JournalCaller'];
export type JournalVerdict = Schemas['JournalVerdict'];
export type JournalMessage = Schemas['JournalMessage'];
export type JournalEntry = Schemas['JournalEntry'];

/** One request as the journal keeps it: recorded as sent (capture.ts), shaped on first read (view.ts). */
export interface Stored {
  /** Its place in the order of requests, given by the ring (store.ts): the entry's id is `req_<seq>`. */
  seq: number;
  atMs: number;
  virtualAt: number;
  method: string;
  path: string;
  url: string;
  status: number;
  latencyMs: number;
  api: JournalApi;
  operationId: string | null;
  caller: JournalCaller | null;
  tool: string | null;
  faultId: string | null;
  /** A fault answered instead of the API (not one that only delayed the real answer). */
  faultAnswered: boolean;
  inputProblems: InputProblem[] | null;
  /** Whether the request's body was JSON text: the `body` filter matches only those (store.ts). */
  jsonBody: boolean;
  /**
   * As recorded; null in a request read back from a shared store, which keeps it as shown and
   * judged (`keptText`), never as sent.
   */
  sent: Sent | null;
  shown?: Shown;
  verdict?: JournalVerdict;
}

/** The raw parts of a request and its answer, as recorded. */
export interface Sent {
  requestHeaders: IncomingHttpHeaders;
  requestBody: Omit<JournalMessage, 'headers'> | JsonSent;
  responseHeaders: OutgoingHttpHeaders;
  /** The answer's first BODY_LIMIT bytes (or fewer), as written: strings or buffers. */
  chunks: (string | Buffer)[];
  chunkEncodings: BufferEncoding[];
  totalBytes: number;
}

/** A JSON request body as text (its first BODY_LIMIT characters), parsed when first shown. */
export interface JsonSent {
  json: string;
  /** The body's size in bytes, and its text's. */
  bodySize: number;
  textSize: number;
}

/** The request and answer as the journal shows them (`text`: the answer for the verdict, when whole). */
export interface Shown {
  request: JournalMessage;
  response: JournalMessage & { text: string | null };
}

/**
 * What a shared store keeps of a request (mock/store/postgres-journal.ts): the request as shown, with
 * credentials and secret fields masked, and its verdict — never as sent, since the store is a
 * database other processes and people read, and the raw headers and bodies hold clients' keys and
 * passwords (docs/mock.md, Secrets in the journal). Its `seq` is the store's.
 */
interface Kept extends Omit<Stored, 'seq' | 'sent' | 'shown' | 'verdict' | 'inputProblems'> {
  shown: { request: JournalMessage; response: JournalMessage };
  verdict: JournalVerdict;
}

/**
 * `s` as a shared store keeps it, as JSON text; `s` must be shown and judged already (the request
 * journal does both before it hands a request to a shared store). The answer's text, which the
 * verdict was worked out from, is left out: it is the answer unmasked. The input problems are too:
 * the verdict states them.
 */
export function keptText(s: Stored): string {
  const { seq: _seq, sent: _sent, shown, verdict, inputProblems: _problems, ...head } = s;
  if (!shown || !verdict) throw new Error('a request is shown and judged before a shared store keeps it');
  const { text: _text, ...response } = shown.response;
  const kept: Kept = { ...head, shown: { request: shown.request, response }, verdict };
  return JSON.stringify(kept);
}

/** The request kept as `text` (`keptText`) under `seq`, as the journal reads it: shown and judged already. */
export function storedFromKept(seq: number, text: string): Stored {
  const { shown, ...kept } = JSON.parse(text) as Kept;
  return {
    ...kept,
    seq,
    inputProblems: null,
    sent: null,
    shown: { request: shown.request, response: { ...shown.response, text: null } },
  };
}
