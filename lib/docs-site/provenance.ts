// Provenance for readers: the contracts name the requirement behind an operation or a schema in
// `x-seed` ("seed 001, Endpoints > Users"); the site shows it as a small "Source" line that links to
// that section of the seed document.
import { escapeHtml as html } from '../html.ts';
import type { MarkdownPage } from './markdown.ts';

/** `x-seed`: one citation or several, each "seed NNN, Section > Subsection". */
export type SeedCitation = string | string[];

const CITATION = /^seed (\d{3}), (.+)$/;

export interface SeedSection {
  citation: string;
  /** The page and anchor of the cited heading. */
  href: string;
}

/**
 * Resolves citations against the seed pages' headings. A citation names a heading (a trailing remark
 * in parentheses may be left out: `AI tools`), optionally preceded by some of its ancestors
 * (`Endpoints > Users`); it must name exactly one heading, or the build fails, so a renamed section
 * cannot leave a dead link.
 */
export function seedResolver(seedPages: MarkdownPage[]): (citation: string) => SeedSection {
  const seeds = new Map<string, MarkdownPage>();
  for (const page of seedPages) {
    const number = /^seed-(\d{3})-/.exec(page.name)?.[1];
    if (number) seeds.set(number, page);
  }
  return (citation) => {
    const match = CITATION.exec(citation);
    const page = match && seeds.get(match[1] ?? '');
    if (!match || !page)
      throw new Error(`x-seed "${citation}" does not read "seed NNN, Section > Subsection"`);
    const wanted = (match[2] ?? '').split('>').map(short);
    const hits: string[] = [];
    const ancestors: { depth: number; text: string }[] = [];
    for (const heading of page.headings) {
      while (ancestors.length && (ancestors.at(-1)?.depth ?? 0) >= heading.depth) ancestors.pop();
      const chain = [...ancestors, heading].map((h) => short(h.text));
      if (chain.at(-1) === wanted.at(-1) && isSubsequence(wanted.slice(0, -1), chain.slice(0, -1)))
        hits.push(heading.id);
      ancestors.push(heading);
    }
    if (hits.length !== 1)
      throw new Error(
        `x-seed "${citation}" names ${hits.length ? 'several headings' : 'no heading'} of ${page.source}`,
      );
    return { citation, href: `${page.name}#${hits[0]}` };
  };
}

/** A heading as a citation names it: lower case, without a trailing remark in parentheses. */
const short = (text: string) =>
  text
    .trim()
    .replace(/\s*\([^()]*\)$/, '')
    .toLowerCase();

function isSubsequence(needle: string[], haystack: string[]): boolean {
  let i = 0;
  for (const item of haystack) if (item === needle[i]) i++;
  return i === needle.length;
}

/** The "Source" line under a description, or '' when the object cites nothing. */
export function sourceLine(citation: SeedCitation | undefined, resolve: (c: string) => SeedSection): string {
  if (!citation) return '';
  const links = (Array.isArray(citation) ? citation : [citation])
    .map(resolve)
    .map((s) => `<a href="${html(s.href)}">${html(s.citation.replaceAll(' > ', ' › '))}</a>`);
  return `<p class="lmskit-source">Source: ${links.join('; ')}</p>`;
}
