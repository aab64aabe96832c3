// One HTTP request of the suite's client (http.ts), made with node:http and node:https on kept-alive
// connections rather than fetch: a complete run makes thousands, and through fetch (undici on Node 20)
// a run took 10–20 % more CPU (bench/RESULTS.md, "A conformance run's requests"). It keeps
// what fetch did for the suite: the whole request within `timeoutMs` (a TimeoutError, as
// AbortSignal.timeout gives), redirects followed as fetch follows them, a multipart form encoded as
// fetch encodes it. What fetch did not do: an answer is read up to MAX_ANSWER_BYTES, so a deployment
// cannot fill the suite's memory.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface Answer {
  status: number;
  headers: Headers;
  /** The answer's bytes, and as UTF-8 text. */
  body: Buffer;
  text: string;
}

/** The largest answer the suite reads; a larger one fails the request. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
const MAX_REDIRECTS = 20;
const HTTP = new HttpAgent({ keepAlive: true });
const HTTPS = new HttpsAgent({ keepAlive: true });

/** Sends the request; `body` is a string, bytes, a multipart form, or nothing. */
export async function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer | FormData | undefined,
  timeoutMs: number,
): Promise<Answer> {
  let sent: Buffer | string | undefined = body instanceof FormData ? undefined : body;
  let sentHeaders = headers;
  if (body instanceof FormData) {
    // The boundary and the parts as fetch writes them.
    const encoded = new Response(body);
    sent = Buffer.from(await encoded.arrayBuffer());
    sentHeaders = { ...headers, 'content-type': encoded.headers.get('content-type') ?? '' };
  }
  const deadline = Date.now() + timeoutMs;
  for (let hops = 0; ; hops++) {
    const answer = await once(url, method, sentHeaders, sent, deadline);
    const location = answer.headers.get('location');
    if (![301, 302, 303, 307, 308].includes(answer.status) || !location || hops >= MAX_REDIRECTS)
      return answer;
    // As fetch: a 303 (and a 301 or 302 after a POST) is followed with a GET and no body; an
    // Authorization header does not go to another origin.
    const next = new URL(location, url);
    if (answer.status === 303 ? method !== 'HEAD' : answer.status <= 302 && method === 'POST') {
      method = 'GET';
      sent = undefined;
      sentHeaders = Object.fromEntries(
        Object.entries(sentHeaders).filter(([name]) => !/^content-/i.test(name)),
      );
    }
    if (next.origin !== new URL(url).origin)
      sentHeaders = Object.fromEntries(
        Object.entries(sentHeaders).filter(([name]) => name.toLowerCase() !== 'authorization'),
      );
    url = next.href;
  }
}

function once(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer | string | undefined,
  deadline: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const https = url.startsWith('https:');
    const req = (https ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      agent: https ? HTTPS : HTTP,
    });
    const timer = setTimeout(
      () => {
        const error = new Error('The operation was aborted due to timeout');
        error.name = 'TimeoutError';
        req.destroy(error);
      },
      Math.max(0, deadline - Date.now()),
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES)
          req.destroy(new Error(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`));
        else chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        try {
          const received = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            received.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: received,
            body,
            text: new TextDecoder().decode(body),
          });
        } catch (error) {
          reject(error); // a header fetch would not take either
        }
      });
    });
    req.end(body);
  });
}
