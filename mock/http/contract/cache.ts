// Of the contract chain (../contract.ts): a GET answer served again while what it depends on (the cache
// key the API gives: caller, state version, virtual time) and its URL stay the same. Two functions over
// the cache, called by the contract router: the look-up after authentication (`before`), the body and
// `admit`, before coercion (coerce.ts); and the keeping of the answer the handler made, once it passed
// the answer check — no wrapper of `res.send`.
import type { Response } from 'express';
import type { Answer, AnswerCache } from '../answer-cache.ts';

/**
 * What the look-up found: an answer kept and sent now (`served`), or none, and then whether the
 * answer about to be made is to be kept (`keep`: the cache admits the key, answer-cache.ts) or not
 * (`make`).
 */
export type CacheLookup = 'served' | 'keep' | 'make';

/** Answers from the cache under `key` when it holds an answer; otherwise tells whether to keep the next. */
export function answerFromCache(res: Response, cache: AnswerCache, key: string): CacheLookup {
  const hit = cache.get(key);
  if (hit) {
    sendKept(res, hit);
    return 'served';
  }
  return cache.admits(key) ? 'keep' : 'make';
}

/**
 * A kept answer, as `res.send` would write it: the same status, type and length. Written directly
 * (Express's `status`, `set` and `send` re-check and re-parse the type on every call, which showed in
 * each cached read's profile, bench/RESULTS.md), except for a conditional request, whose 304 is
 * Express's to decide.
 */
function sendKept(res: Response, hit: Answer): void {
  const { method, headers } = res.req;
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) {
    res.status(200).set('content-type', hit.type).send(hit.body);
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', hit.type);
  res.setHeader(
    'Content-Length',
    typeof hit.body === 'string' ? Buffer.byteLength(hit.body) : hit.body.length,
  );
  if (method === 'HEAD') res.end();
  else res.end(hit.body);
}

/**
 * Keeps a 200 answer under `key`, its JSON text as serialised once (`type` its content type), and
 * returns what to send: the same text or the same bytes. Kept as Express would send it: it encodes a
 * string answer of 1 000 characters or more on every send, so those are kept as bytes, and the same
 * bytes are sent now rather than encoded twice; a shorter one stays a string, which Node writes in
 * one piece with the headers where bytes would be a second buffer of the socket's write (measured per
 * request, bench/RESULTS.md).
 */
export function keepAnswer(cache: AnswerCache, key: string, type: string, text: string): string | Buffer {
  const kept = text.length < 1000 ? text : Buffer.from(text);
  cache.set(key, { type, body: kept });
  return kept;
}
