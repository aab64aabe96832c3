// One search across the whole site: every section of the written and generated pages and every
// operation of the three references, indexed with MiniSearch when the site is built and shipped as a
// script, so the header's search box works from disk as well as from the mock.
import MiniSearch from 'minisearch';

export interface SearchDoc {
  /** Where the result leads, relative to the site's root; unique. */
  url: string;
  title: string;
  /** The page it is on, shown under the title. */
  page: string;
  text: string;
  /** How much a match here counts against one elsewhere (1 when not given). */
  weight?: number;
  /** What the result shows under its title (the start of `text` when not given). */
  excerpt?: string;
}

/** The options the index is built with; the page must load it with the same ones. */
export const SEARCH_OPTIONS = {
  idField: 'url',
  fields: ['title', 'text'],
  storeFields: ['title', 'page', 'url', 'excerpt', 'weight'],
};

/**
 * A word as the index keeps it: lower case, and a plural's final `s` dropped, so "webhook" finds the
 * section headed `Webhooks` as well as it finds "webhook" (a prefix match counts for less). The page's
 * search (assets/search.js) treats the words of a query the same way.
 */
export const termOf = (term: string) => term.toLowerCase().replace(/([a-z]{3})s$/, '$1');

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const BLOCK = /<\/?(p|br|li|ul|ol|h[1-6]|table|tr|td|th|div|section|pre|dt|dd)\b[^>]*>/g;

/** The text of some HTML: tags dropped (blocks apart), the escapes the site writes undone, spaces collapsed. */
export const textOf = (markup: string) =>
  markup
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(BLOCK, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e)
    .replace(/\s+/g, ' ')
    .trim();

/** Labels a section shows before its text (the tools' category and hints); no excerpt should open with them. */
const HINTS = /<p class="lmskit-hints">[\s\S]*?<\/p>/g;

/**
 * The sections of a page's HTML, one per heading that has an id (h1 to h3): a result leads to the
 * heading itself, and its text is everything up to the next such heading.
 */
export function htmlSections(name: string, pageTitle: string, markup: string, weight = 1): SearchDoc[] {
  const heading = /<h([1-3])\s[^>]*\bid="([^"]+)"[^>]*>([\s\S]*?)<\/h\1>/g;
  const found = [...markup.matchAll(heading)];
  return found.map((m, i) => {
    const end = found[i + 1]?.index ?? markup.length;
    return {
      url: m[1] === '1' ? name : `${name}#${m[2]}`,
      title: textOf(m[3] ?? ''),
      page: pageTitle,
      text: textOf(markup.slice((m.index ?? 0) + m[0].length, end).replace(HINTS, '')),
      weight,
    };
  });
}

/** The index as a script that defines `window.lmskitSearch` (a script, not JSON: it loads from disk too). */
export function searchIndexScript(docs: SearchDoc[]): string {
  const unique = [...new Map(docs.map((d) => [d.url, d])).values()];
  const shorten = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}…` : text);
  const search = new MiniSearch<SearchDoc>({ ...SEARCH_OPTIONS, processTerm: termOf });
  search.addAll(unique.map((d) => ({ ...d, excerpt: shorten(d.excerpt ?? d.text) })));
  const payload = { options: SEARCH_OPTIONS, index: search.toJSON() };
  return `window.lmskitSearch = ${JSON.stringify(payload).replaceAll('<', '\\u003c')};\n`;
}
