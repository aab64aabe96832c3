// "Copy as curl": a journalled request as a command that sends it again. Credentials were masked in
// the journal (`••••` and, for a long key, its last 4 characters), so the command names them with a
// placeholder to fill in.
import type { components } from '../../generated/admin.ts';

type Detail = components['schemas']['JournalEntryDetail'];
const MASKED = /^••••/;
/** Headers curl sets itself or that describe the old connection. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'accept-encoding']);

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The journalled URL (a path and query as sent) on this origin. Put together as text, not resolved:
 * a path such as `//x` resolved against the origin would name host x, and one the URL parser cannot
 * read would throw; every request in the journal must copy.
 */
export function absoluteUrl(url: string, origin: string): string {
  const text = `${origin}${url.startsWith('/') ? '' : '/'}${url}`;
  return URL.canParse(text) ? new URL(text).toString() : text;
}

export function curlOf(detail: Detail, origin: string): string {
  const { entry, request } = detail;
  const parts = [`curl -X ${entry.method} ${quote(absoluteUrl(entry.url, origin))}`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (SKIPPED.has(name)) continue;
    const ending = value.slice(4);
    const shown = MASKED.test(value) ? `<${name}${ending ? ` ending ${ending}` : ''}>` : value;
    parts.push(`-H ${quote(`${name}: ${shown}`)}`);
  }
  const body = request.body as unknown;
  if (body !== null && body !== undefined && !(typeof body === 'object' && 'upload' in (body as object)))
    parts.push(`--data-raw ${quote(typeof body === 'string' ? body : JSON.stringify(body))}`);
  return parts.join(' \\\n  ');
}
