// The site's one navigation: every page shows this list in its header, the API references included.
import { escapeHtml as html } from '../html.ts';

export interface NavLink {
  /** A page of the site, relative to its root (every page sits at the root). */
  href: string;
  label: string;
  /** What the reader finds there, shown on hover. */
  title: string;
}

export interface NavGroup {
  label: string;
  links: NavLink[];
}

/**
 * The header, in order. The mock's console at `/console/` is served outside the static site, so the
 * header leads to its guide (`console.html`), which a page opened from disk has too.
 */
export const NAV: NavGroup[] = [
  {
    label: 'APIs',
    links: [
      { href: 'v1.html', label: 'REST API v1', title: 'Integration REST API (v1) reference' },
      { href: 'v2.html', label: 'MCP backend v2', title: 'MCP backend API (v2) reference' },
      { href: 'tools.html', label: 'MCP tools', title: 'The 25 MCP tools: arguments, results, access' },
      { href: 'admin.html', label: 'Admin API', title: "The mock's admin API reference" },
    ],
  },
  {
    label: 'Guides',
    links: [
      { href: 'mock.html', label: 'Mock', title: 'Running and driving the mock' },
      { href: 'mcp.html', label: 'MCP tool server', title: 'The MCP tool server over stdio or HTTP' },
      {
        href: 'console.html',
        label: 'Console',
        title: "The mock's console at /console/: requests, tenant, data, time, webhooks, faults",
      },
      {
        href: 'conformance.html',
        label: 'Conformance',
        title: 'Checking a deployment against the contracts',
      },
    ],
  },
  {
    label: 'Contracts',
    links: [
      { href: 'requirements.html', label: 'Requirements', title: 'The two seed documents' },
      {
        href: 'assumptions.html',
        label: 'Assumed choices',
        title: 'Where the seeds are silent, what we chose',
      },
    ],
  },
];

/** Every page the header links to, for the checks that they all exist. */
export const navLinks = (): NavLink[] => NAV.flatMap((g) => g.links);

/**
 * The header of a page; `current` is the page's own name, marked for the reader. On a narrow screen
 * (a phone) the navigation folds behind the **Menu** button (assets/nav.js), so the header stays one
 * line, with the search.
 */
export function siteHeader(current: string): string {
  const groups = NAV.map(
    (group) =>
      `<span class="lmskit-nav-group" role="group" aria-label="${html(group.label)}">${group.links
        .map(
          (l) =>
            `<a href="${html(l.href)}" title="${html(l.title)}"${l.href === current ? ' aria-current="page"' : ''}>${html(l.label)}</a>`,
        )
        .join('')}</span>`,
  ).join('');
  return `<header class="lmskit-header">
<a class="lmskit-brand" href="index.html"${current === 'index.html' ? ' aria-current="page"' : ''}>lmskit</a>
<button type="button" class="lmskit-menu" aria-controls="lmskit-nav" aria-expanded="false">Menu</button>
<nav id="lmskit-nav" aria-label="Site">${groups}</nav>
<div class="lmskit-search" role="search">
<input type="search" id="lmskit-search" placeholder="Search the docs" aria-label="Search the whole site" autocomplete="off" aria-controls="lmskit-results" aria-expanded="false">
<ol id="lmskit-results" role="listbox" hidden></ol>
</div>
</header>`;
}

/**
 * What every page loads: the site's style, the header's search (which loads the index, built with
 * the site, when the reader first comes to it) and its menu button.
 */
export function headAssets(): string {
  return '<link rel="stylesheet" href="assets/site.css">';
}

export function bodyAssets(): string {
  return [
    '<script src="assets/search.js" defer></script>',
    '<script src="assets/nav.js" defer></script>',
  ].join('\n');
}
