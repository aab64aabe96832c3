// Of the contract chain (../contract.ts), run after authentication (`before`), the body and `admit`,
// before coercion (coerce.ts): a GET answer served again while what it depends on (the cache key the
// API gives: caller, state version, virtual time) and its URL stay the same.
import type { Response } from 'express';
import type { Answer, AnswerCache } from '../answer-cache.ts';

/**
 * Answers from the cache and tells so (true), or, when the cache admits the key (answer-cache.ts),
 * arranges for the 200 answer about to be sent to be kept under it (false).
 */
export function answerFromCache(res: Response, cache: AnswerCache, key: string): boolean {
  const hit = cache.get(key);
  if (hit) {
    sendKept(res, hit);
    return true;
  }
  if (cache.admits(key)) rememberAnswer(res, (answer) => cache.set(key, answer));
  return false;
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

/** Hands a 200 answer's body to `keep` as it is sent. */
export function rememberAnswer(res: Response, keep: (answer: Answer) => void): void {
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    res.send = send;
    if (res.statusCode !== 200 || typeof body !== 'string') return send(body);
    // Kept as Express would send it: it encodes a string answer of 1 000 characters or more on
    // every send, so those are kept as bytes, and the same bytes are sent now rather than encoded
    // twice; a shorter one stays a string, which Node writes in one piece with the headers where
    // bytes would be a second buffer of the socket's write (measured per request, bench/RESULTS.md).
    const kept = body.length < 1000 ? body : Buffer.from(body);
    keep({ type: String(res.get('content-type') ?? 'application/json'), body: kept });
    return send(kept);
  };
}
