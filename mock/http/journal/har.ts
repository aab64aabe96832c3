// The request journal as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/),
// for `GET /__admin/journal/har`: each request as shown (credentials and secrets masked), its URL made
// absolute on the origin the export was asked from, its verdict in the entry's comment.
import type { JournalEntry, JournalMessage, Shown, Stored } from './entry.ts';

/** One request to export: as kept, its entry, and as shown. */
export interface HarItem {
  stored: Stored;
  entry: JournalEntry;
  shown: Shown;
}

/** `origin` followed by a journalled URL, as a URL: put together as text, since `//x` resolved against an origin would name host x. */
function absoluteUrl(url: string, origin: string): URL {
  for (const text of [`${origin}${url.startsWith('/') ? '' : '/'}${url}`, `${origin}/`])
    try {
      return new URL(text);
    } catch {}
  return new URL('http://localhost/');
}

const bodyText = (m: JournalMessage) =>
  m.body === null || m.body === undefined ? '' : typeof m.body === 'string' ? m.body : JSON.stringify(m.body);

const pairs = (headers: Record<string, string>) =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

/** The HAR of `items`, in the order given (oldest first); `version` is lmskit's, `origin` makes URLs absolute. */
export function harOf(items: HarItem[], version: string, origin: string) {
  const entries = items.map(({ stored, entry, shown }) => {
    const s = { ...stored, ...shown };
    const url = absoluteUrl(s.url, origin);
    const requestType = s.request.headers['content-type'] ?? '';
    const responseType = s.response.headers['content-type'] ?? '';
    return {
      startedDateTime: new Date(s.atMs).toISOString(),
      time: entry.latencyMs,
      request: {
        method: s.method,
        url: url.toString(),
        httpVersion: 'HTTP/1.1',
        headers: pairs(s.request.headers),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        ...(s.request.bodySize
          ? {
              postData: {
                mimeType: requestType,
                text: bodyText(s.request),
                ...(s.request.bodyNote ? { comment: s.request.bodyNote } : {}),
              },
            }
          : {}),
        headersSize: -1 as const,
        bodySize: s.request.bodySize,
      },
      response: {
        status: s.status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: pairs(s.response.headers),
        content: {
          size: s.response.bodySize,
          mimeType: responseType,
          text: bodyText(s.response),
          ...(s.response.bodyNote ? { comment: s.response.bodyNote } : {}),
        },
        redirectURL: s.response.headers.location ?? '',
        headersSize: -1 as const,
        bodySize: s.response.bodySize,
      },
      cache: {},
      timings: { send: 0, wait: entry.latencyMs, receive: 0 },
      comment: `${entry.id} ${entry.operationId ?? 'no operation'}; ${
        entry.verdict.errors.length
          ? `contract departed: ${entry.verdict.errors.join('; ')}`
          : 'contract kept'
      }`,
    };
  });
  return {
    log: {
      version: '1.2' as const,
      creator: { name: 'lmskit mock', version },
      entries,
    },
  };
}
