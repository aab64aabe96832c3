// The headers of the pages a browser opens on the mock — `/`, the console and the docs site
// (docs/mock.md, "Host names and pages"): a Content-Security-Policy that lets a page run only its own
// scripts and talk only to the mock, and never be framed (`frame-ancestors 'none'`: no other site can
// lay the console under a click of its own), and `X-Content-Type-Options: nosniff`, so a file is
// never run as something other than its type.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** What every policy ends with: no plugins, no `<base>` of another host, no form posts, no framing. */
const CLOSED = "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `/`: links and text only. */
export const INDEX_POLICY = `default-src 'none'; ${CLOSED}`;

/**
 * The console: its script and stylesheet are files of its own (console/index.html has nothing
 * inline; Preact sets styles through the CSSOM, which a policy does not govern), it calls only the
 * admin API of the same mock, and downloads are `blob:` links.
 */
export const CONSOLE_POLICY = `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; ${CLOSED}`;

/** The inline scripts of an HTML page (not `src=` ones, not data blocks such as `type="application/json"`). */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/gi;
const TYPE = /\stype\s*=\s*["']?([^"'\s>]*)/i;
/** The `type`s a browser runs (a data block, such as `application/json`, is only data). */
const RUNS = new Set(['', 'module', 'text/javascript', 'application/javascript']);

/** `'sha256-…'` of each inline script of `html`, as a policy names a script it lets run. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (!RUNS.has((TYPE.exec(attributes ?? '')?.[1] ?? '').toLowerCase())) continue;
    hashes.add(
      `'sha256-${createHash('sha256')
        .update(text ?? '')
        .digest('base64')}'`,
    );
  }
  return [...hashes];
}

/**
 * A page of the docs site. Its scripts are the site's files and, on the reference pages, Redoc's,
 * which Redocly inlines (docs/adr-0003: the site works offline, from disk too): those are allowed by
 * their hashes, so no other inline script runs. Styles are another matter on a reference page: Redoc
 * renders with styled-components, which writes `<style>` elements and `style` attributes while it
 * runs, with contents no hash can name in advance, so such a page keeps `'unsafe-inline'` for styles
 * (styles cannot run code; scripts stay closed). Try it calls the mock the page came from; Redoc's
 * search runs in a worker made from a `blob:` URL.
 */
export function docsPolicy(html?: string): string {
  const hashes = html ? inlineScriptHashes(html) : [];
  const inlineStyles = html !== undefined && /<style[\s>]|\sstyle="/i.test(html);
  return [
    "default-src 'none'",
    `script-src 'self'${hashes.length ? ` ${hashes.join(' ')}` : ''}`,
    `style-src 'self'${inlineStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    CLOSED,
  ].join('; ');
}

/** Sets the page headers with `policy` on every answer that passes (a page, a file, an error page). */
export function pageHeaders(policy: string) {
  return (_req: Request, res: Response, next: NextFunction) => {
    res.set({ 'Content-Security-Policy': policy, 'X-Content-Type-Options': 'nosniff' });
    next();
  };
}
