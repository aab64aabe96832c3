// The JSON request body. Nearly every write a client sends is `application/json` (or with
// `charset=utf-8`), uncompressed, with a Content-Length within the limit: that body is read here in a
// few lines. Anything else (another charset, a compressed or chunked body, a declared length over the
// limit, a body that is not JSON) goes to `express.json`, whose answers for those cases stay the mock's.
// Profiled on create-user, `express.json` (type checks, content-type parsing, raw-body's stream
// plumbing, the charset decoder) was the largest single cost of a write, about 40 us of 236.
//
// The text as received is kept on the request (`receivedJson`), so that the request journal shows
// what the client sent without writing the parsed body out again.
import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { refuseDeepJson } from './refusals.ts';

/** The largest JSON body a request may carry, in bytes. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The content types read here; any other parameter, or another charset, goes to `express.json`. */
const PLAIN_JSON = /^application\/json(?:\s*;\s*charset="?utf-8"?)?$/i;

const JSON_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

const RECEIVED = Symbol('the JSON text received');

/** The body's text as the client sent it, when it was read here. */
export function receivedJson(req: IncomingMessage): string | undefined {
  return (req as IncomingMessage & { [RECEIVED]?: string })[RECEIVED];
}

/** A body-parser-shaped error, which the app's error handler answers in the API's shape. */
const refusal = (message: string, type: string) => Object.assign(new Error(message), { status: 400, type });

export function jsonBody() {
  const general = express.json({ limit: JSON_BODY_LIMIT, type: 'application/json', verify: refuseDeepJson });
  return (req: Request, res: Response, next: NextFunction): void => {
    // Read already (a parser in front of the contract router, in a test): there is nothing left to read.
    if (req.body !== undefined || req.readableEnded) {
      next();
      return;
    }
    const { headers } = req;
    const length = Number(headers['content-length']);
    if (
      !PLAIN_JSON.test(headers['content-type'] ?? '') ||
      headers['content-encoding'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      !(length > 0 && length <= JSON_BODY_LIMIT)
    ) {
      general(req, res, next);
      return;
    }
    // Node's parser delivers at most Content-Length bytes, so `length` bounds what is held.
    const chunks: Buffer[] = [];
    const done = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      next(error);
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onError = () => done(refusal('The request was not received in full.', 'request.aborted'));
    const onAborted = onError;
    const onEnd = () => {
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      try {
        refuseDeepJson(req, res, bytes);
      } catch (error) {
        done(error as Error);
        return;
      }
      // A leading byte-order mark is dropped, as express.json's decoder drops it.
      const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      // Like express.json (strict), only an object or an array, after JSON's own whitespace.
      let first = start;
      while (first < bytes.length && JSON_SPACE.has(bytes[first] as number)) first++;
      if (bytes[first] !== 0x7b && bytes[first] !== 0x5b) {
        done(refusal('The body is not a JSON object or array.', 'entity.parse.failed'));
        return;
      }
      const text = bytes.toString('utf8', start);
      try {
        req.body = JSON.parse(text);
      } catch (error) {
        done(refusal((error as Error).message, 'entity.parse.failed'));
        return;
      }
      (req as Request & { [RECEIVED]?: string })[RECEIVED] = text;
      done();
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  };
}
