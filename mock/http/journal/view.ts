// How the request journal shows a request it keeps, worked out on the first read and then kept:
// headers with credentials masked, bodies parsed from JSON (else text, else a note), cut at BODY_LIMIT,
// with the fields the contracts mark as secret masked (secrets.ts); and the entry that lists it.
import { toIso } from '../../domain/clock.ts';
import { isSecretHeader, maskSecret, maskText, maskValue, type SecretTree } from '../secrets.ts';
import {
  BODY_LIMIT,
  cut,
  type JournalEntry,
  type JournalMessage,
  type JournalVerdict,
  type Shown,
  type Stored,
} from './entry.ts';
import { idOf } from './store.ts';

function headersOf(raw: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    const key = name.toLowerCase();
    out[key] = isSecretHeader(key) ? maskSecret(text) : text;
  }
  return out;
}

const isText = (type: string) => /json|text|xml|javascript|html|csv|yaml|x-www-form-urlencoded/.test(type);

/**
 * A body as the journal shows it: parsed JSON, else text, cut at BODY_LIMIT with a note; the secrets
 * `secrets` finds (the contract's schema of this body) masked.
 */
function bodyOf(
  text: string,
  size: number,
  type: string,
  secrets?: SecretTree,
): Pick<JournalMessage, 'body' | 'bodyNote'> {
  if (size > BODY_LIMIT)
    return { body: maskText(cut(text), secrets), bodyNote: `cut at ${BODY_LIMIT} of ${size} bytes` };
  if (type.includes('json')) {
    try {
      return { body: maskValue(JSON.parse(text), secrets), bodyNote: null };
    } catch {
      return { body: maskText(text, secrets), bodyNote: 'not valid JSON; shown as text' };
    }
  }
  return { body: text === '' ? null : maskText(text, secrets), bodyNote: null };
}

/**
 * The request and answer of `s` as shown, worked out on first read and kept. `secretsOf` finds where
 * the secrets are in the request body (no `status`) or in the answer with `status` (contracts.ts).
 */
export function shownOf(s: Stored, secretsOf: (status?: number) => SecretTree | undefined): Shown {
  if (s.shown) return s.shown;
  // Only a request read back from a shared store lacks what was sent, and it comes shown.
  if (!s.sent) throw new Error(`request ${idOf(s.seq)} holds neither what was sent nor how it is shown`);
  const { requestHeaders, requestBody, responseHeaders, chunks, chunkEncodings, totalBytes } = s.sent;
  const responseType = String(responseHeaders['content-type'] ?? '');
  const text = Buffer.concat(
    chunks.map((c, i) => (typeof c === 'string' ? Buffer.from(c, chunkEncodings[i]) : c)),
  ).toString('utf8');
  const body = isText(responseType)
    ? bodyOf(text, totalBytes, responseType, secretsOf(s.status))
    : {
        body: null,
        bodyNote: totalBytes ? `${totalBytes} bytes of ${responseType || 'untyped'} data` : null,
      };
  s.shown = {
    request: {
      headers: headersOf(requestHeaders),
      ...('json' in requestBody
        ? {
            ...bodyOf(requestBody.json, requestBody.textSize, 'application/json', secretsOf()),
            bodySize: requestBody.bodySize,
          }
        : requestBody),
    },
    response: {
      headers: headersOf(responseHeaders as Record<string, string | string[] | number>),
      ...body,
      bodySize: totalBytes,
      text: totalBytes <= BODY_LIMIT && isText(responseType) ? text : null,
    },
  };
  return s.shown;
}

/** The answer as the admin API shows it: without the text kept for the verdict. */
export function answerOf(shown: Shown): JournalMessage {
  const { text: _text, ...answer } = shown.response;
  return answer;
}

/** The entry that lists `s` (openapi/admin, JournalEntry), with its verdict (verdict.ts). */
export function entryOf(s: Stored, verdict: JournalVerdict): JournalEntry {
  return {
    id: idOf(s.seq),
    at: new Date(s.atMs).toISOString(),
    virtualAt: toIso(s.virtualAt),
    method: s.method,
    path: s.path,
    url: s.url,
    status: s.status,
    latencyMs: Math.round(s.latencyMs * 1000) / 1000,
    api: s.api,
    operationId: s.operationId,
    caller: s.caller,
    tool: s.tool,
    faultId: s.faultId,
    verdict,
  };
}
