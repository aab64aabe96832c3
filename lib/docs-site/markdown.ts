// The hand-written pages: the guides of docs/ and the two seed documents of docs/requirements/,
// rendered with marked. Headings get GitHub's anchors, so a link written for the repository
// (`mock.md#webhooks`) lands on the same heading on the site.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { Marked, type Tokens } from 'marked';
import { escapeHtml as html } from '../html.ts';
import { ROOT } from '../paths.ts';
import { textOf } from './search.ts';

export interface MarkdownPage {
  /** The page's file name on the site. */
  name: string;
  /** Repository path of the source, e.g. `docs/mock.md`. */
  source: string;
  title: string;
  html: string;
  headings: Heading[];
}

export interface Heading {
  depth: number;
  text: string;
  id: string;
}

/** The docs folder's own README describes the site for readers of the repository; it is no page of it. */
const NOT_ON_SITE = new Set(['docs/README.md']);

/** Repository files that are pages of the site under another name. */
const SITE_NAME: Record<string, string> = {
  'docs/guide.md': 'index.html',
  'docs/requirements/README.md': 'requirements.html',
  'openapi/v1/openapi.yaml': 'v1.html',
  'openapi/v2/openapi.yaml': 'v2.html',
  'openapi/admin/openapi.yaml': 'admin.html',
  'mcp-schema/README.md': 'tools.html',
};

/** The markdown sources of the site, repository paths, in a stable order. */
export function markdownSources(): string[] {
  const list = (dir: string) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `${dir}/${f}`);
  return [...list('docs'), ...list('docs/requirements')].filter((s) => !NOT_ON_SITE.has(s));
}

/** The site page a repository file becomes, or undefined when it is not on the site. */
export function pageNameOf(source: string, sitePages: ReadonlySet<string>): string | undefined {
  if (SITE_NAME[source]) return SITE_NAME[source];
  if (markdownSources().includes(source)) return `${posix.basename(source, '.md')}.html`;
  // A link such as `assumptions.html` from docs/guide.md names a generated page directly.
  const base = posix.basename(source);
  return posix.dirname(source) === 'docs' && sitePages.has(base) ? base : undefined;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function slugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count ? `${base}-${count}` : base;
  };
}

/**
 * Renders one markdown file of the repository as a page body. `sitePages` are the names of every
 * page the site has, so that links to other repository files become links to their pages; a link
 * to a file the site does not carry keeps its words but is no link, rather than one that leads nowhere.
 */
export function renderMarkdown(
  source: string,
  sitePages: ReadonlySet<string>,
  markdown = readFileSync(join(ROOT, source), 'utf8'),
): MarkdownPage {
  const slug = slugger();
  const headings: Heading[] = [];
  const marked = new Marked({
    renderer: {
      heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const text = textOf(inner);
        const id = slug(text);
        headings.push({ depth: token.depth, text, id });
        return `<h${token.depth} id="${html(id)}">${inner}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const href = siteHref(source, token.href, sitePages);
        if (href === undefined)
          return `<span title="${html(`${token.href}, in the repository`)}">${inner}</span>`;
        const title = token.title ? ` title="${html(token.title)}"` : '';
        return `<a href="${html(href)}"${title}>${inner}</a>`;
      },
      // The site carries no pictures (docs/screenshots/ stays in the repository): an image is named
      // by its description, rather than shown broken.
      image(token: Tokens.Image) {
        return `<span class="lmskit-image" title="${html(`${token.href}, in the repository`)}">[${html(token.text)}]</span>`;
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  const title = headings.find((h) => h.depth === 1)?.text ?? posix.basename(source, '.md');
  return { name: pageNameOf(source, sitePages) ?? '', source, title, html: body, headings };
}

/** Where a link of a markdown file goes on the site; undefined for a repository file the site lacks. */
function siteHref(source: string, href: string, sitePages: ReadonlySet<string>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
  const [path = '', fragment] = href.split('#');
  const target = posix.normalize(posix.join(posix.dirname(source), decodeURI(path)));
  const page = pageNameOf(target, sitePages);
  if (!page) return undefined;
  return fragment === undefined ? page : `${page}#${fragment}`;
}
