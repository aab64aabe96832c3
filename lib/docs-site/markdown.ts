// The hand-written pages: the guides of docs/ and the two seed documents of docs/requirements/,
// rendered with marked. Links are written for the repository (they work on a forge and in an editor):
// a link to a file that is a page of the site becomes a link to that page, and headings get GitHub's
// anchors, so `mock.md#webhooks` lands on the same heading on the site. Pictures (docs/screenshots/)
// are carried into the site at their path under docs/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
  /** The pictures the page shows: repository path → file name on the site. */
  images: Map<string, string>;
}

export interface Heading {
  depth: number;
  text: string;
  id: string;
}

/** The docs folder's own README describes the site for readers of the repository; it is no page of it. */
const NOT_ON_SITE = new Set(['docs/README.md']);

/**
 * Repository files that are pages of the site under another name: the contracts are their references,
 * and a generated page is named by the source that generates it (a link from a guide to the list of
 * assumed choices names `lib/docs-site/assumptions.ts` in the repository, `assumptions.html` here).
 */
const SITE_NAME: Record<string, string> = {
  'docs/guide.md': 'index.html',
  'docs/requirements/README.md': 'requirements.html',
  'openapi/v1/openapi.yaml': 'v1.html',
  'openapi/v2/openapi.yaml': 'v2.html',
  'openapi/admin/openapi.yaml': 'admin.html',
  'mcp-schema/README.md': 'tools.html',
  'lib/docs-site/tools.ts': 'tools.html',
  'lib/docs-site/assumptions.ts': 'assumptions.html',
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

/**
 * The site page a repository file becomes, or undefined when it is not on the site. (A link names
 * the repository file, never a page of the built site, which the repository does not hold.)
 */
export function pageNameOf(source: string): string | undefined {
  if (SITE_NAME[source]) return SITE_NAME[source];
  return markdownSources().includes(source) ? `${posix.basename(source, '.md')}.html` : undefined;
}

/**
 * Where the site keeps a picture of the repository: pictures under docs/ at the same path as there
 * (`docs/screenshots/x.png` → `screenshots/x.png`, beside the pages that show it), any other under
 * `files/` with its repository path.
 */
export function siteFileOf(source: string): string {
  return source.startsWith('docs/') ? source.slice('docs/'.length) : `files/${source}`;
}

/**
 * Repository path of a link's target, relative to the file the link is in (`mock.md#faults` in
 * `docs/console.md` → `docs/mock.md`); undefined for an address with a scheme or a bare fragment.
 */
export function repositoryTarget(source: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) return undefined;
  const path = href.split('#')[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {}
  return posix.normalize(posix.join(posix.dirname(source), decoded)).replace(/\/$/, '');
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
  const images = new Map<string, string>();
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
      // A picture of the repository is carried into the site (siteFileOf); one that is missing, or
      // elsewhere on the web (the site loads nothing from another host), is named by its description.
      image(token: Tokens.Image) {
        const target = repositoryTarget(source, token.href);
        if (target === undefined || !existsSync(join(ROOT, target)))
          return `<span class="lmskit-image" title="${html(token.href)}">[${html(token.text)}]</span>`;
        const name = siteFileOf(target);
        images.set(target, name);
        const title = token.title ? ` title="${html(token.title)}"` : '';
        return `<img src="${html(encodeURI(name))}" alt="${html(token.text)}"${title}>`;
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  const title = headings.find((h) => h.depth === 1)?.text ?? posix.basename(source, '.md');
  return { name: pageNameOf(source) ?? '', source, title, html: body, headings, images };
}

/**
 * Where a link of a repository file (a guide, a contract's description) goes on the site; undefined
 * for a repository file the site lacks.
 */
export function siteHref(source: string, href: string, sitePages: ReadonlySet<string>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
  const target = repositoryTarget(source, href);
  const page = target === undefined ? undefined : pageNameOf(target);
  if (!page || !sitePages.has(page)) return undefined;
  const fragment = href.includes('#') ? href.slice(href.indexOf('#') + 1) : undefined;
  return fragment === undefined ? page : `${page}#${fragment}`;
}
