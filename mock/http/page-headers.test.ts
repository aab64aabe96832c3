// The policies of the pages the mock serves (page-headers.ts; docs/mock.md, Host names and pages):
// a docs page's inline scripts are named by their hashes, data blocks and files are not, and inline
// styles are allowed only on a page that has them (a Redoc reference).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONSOLE_POLICY, docsPolicy, INDEX_POLICY, inlineScriptHashes } from './page-headers.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes scripts that run (no type, module, JavaScript), not data blocks nor files', () => {
    const page = [
      '<script>first()</script>',
      '<script type="module">second()</script>',
      "<script type='text/javascript'>third()</script>",
      '<script type="application/json" id="data">{"a":1}</script>',
      '<script src="assets/x.js" defer></script>',
      '<SCRIPT>first()</SCRIPT>',
    ].join('\n');
    expect(inlineScriptHashes(page)).toEqual([hash('first()'), hash('second()'), hash('third()')]);
  });
});

describe('docsPolicy', () => {
  it('allows a page its own inline scripts by hash, and inline styles only when it has some', () => {
    const reference = '<style>a{}</style><div style="x"></div><script>go()</script>';
    expect(docsPolicy(reference)).toContain(`script-src 'self' ${hash('go()')};`);
    expect(docsPolicy(reference)).toContain("style-src 'self' 'unsafe-inline';");
    const guide = '<link rel="stylesheet" href="assets/site.css"><script src="assets/search.js"></script>';
    expect(docsPolicy(guide)).toContain("script-src 'self';");
    expect(docsPolicy(guide)).toContain("style-src 'self';");
  });

  it('every policy refuses framing, plugins and other bases, and runs no inline script unnamed', () => {
    for (const policy of [docsPolicy(), docsPolicy('<script>x()</script>'), CONSOLE_POLICY, INDEX_POLICY]) {
      expect(policy).toMatch(/^default-src 'none'; /);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'none'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-/);
    }
  });
});
