// The parts of the docs site that need no browser: samples, provenance, assumed choices, tool
// examples, links of the written pages and the search index (docs/adr-0003).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../../mock/seed/demo.ts';
import { loadBundle } from '../../test/helpers.ts';
import { API_NAMES, ROOT } from '../paths.ts';
import { type Node, resolveRef } from '../spec-walk.ts';
import { createToolAjv, loadTools } from '../tool-schemas.ts';
import { apiAssumptions, collectAssumptions } from './assumptions.ts';
import { markdownSources, pageNameOf, renderMarkdown, repositoryTarget, slugger } from './markdown.ts';
import { seedResolver } from './provenance.ts';
import { operationHref, operationsOf, readerSpec, siteLinks } from './reference.ts';
import { codeSamples, exampleRequest, firstExample } from './samples.ts';
import { htmlSections, searchIndexScript } from './search.ts';
import { toolExample } from './tools.ts';

const SITE_PAGES = new Set(['v1.html', 'v2.html', 'admin.html', 'tools.html', 'assumptions.html']);
for (const source of markdownSources()) SITE_PAGES.add(pageNameOf(source) ?? source);
const seedPages = () =>
  markdownSources()
    .filter((s) => s.startsWith('docs/requirements/seed-'))
    .map((s) => renderMarkdown(s, SITE_PAGES));

const AUTH = { v1: ['X-API-KEY', DEMO_SITE_API_KEY], v2: ['X-MCP-Key', demoMcpKey('write')] } as const;

describe('code samples (docs/adr-0003: generated from the contract by httpsnippet)', () => {
  const all = API_NAMES.flatMap((api) => {
    const spec = loadBundle(api);
    return operationsOf(api, spec).map((o) => ({ ...o, spec }));
  });

  it.each(all.map((o) => [`${o.api} ${o.operation.operationId}`, o] as const))(
    '%s: curl, JavaScript fetch and Python requests, each with the method, the URL and the key',
    (_, { api, spec, path, method, operation }) => {
      const request = exampleRequest(api, spec, path, method);
      const [curl, js, python] = codeSamples(request);
      expect([curl?.lang, js?.lang, python?.lang]).toEqual(['curl', 'JavaScript', 'Python']);
      // Up to the first path parameter, whose example the URL carries instead.
      const base = request.server + (path.split('{')[0] ?? '');
      for (const sample of [curl, js, python]) expect(sample?.source).toContain(base);
      expect(curl?.source).toContain(`--request ${method.toUpperCase()}`);
      expect(js?.source).toContain(`method: '${method.toUpperCase()}'`);
      expect(python?.source).toContain(`requests.${method}(`);
      if (api !== 'admin' && request.auth) {
        const [header, key] = AUTH[api];
        for (const sample of [curl, js, python]) {
          expect(sample?.source).toContain(header);
          expect(sample?.source).toContain(key);
        }
      }
      // A JSON body is the contract's own example, as curl sends it.
      const media = operation.requestBody && Object.entries(resolve(spec, operation.requestBody).content)[0];
      if (media && media[0] === 'application/json') {
        const sent = /--data '([\s\S]*)'$/.exec(curl?.source ?? '')?.[1];
        expect(JSON.parse(sent ?? 'null')).toEqual(firstExample(spec, media[1] as Record<string, unknown>));
      }
    },
  );

  it('fills path parameters with the contract’s examples', () => {
    const spec = loadBundle('v1');
    const [curl] = codeSamples(exampleRequest('v1', spec, '/users/{userId}', 'patch'));
    expect(curl?.source).toContain('http://127.0.0.1:4010/openapi/v1/users/lena');
  });
});

const resolve = (spec: Node, node: Node) => resolveRef(spec, node) as Node;

describe('descriptions for readers, provenance in x-seed', () => {
  it('no operation or webhook description opens with a seed citation; the citations live in x-seed', () => {
    for (const api of API_NAMES) {
      const spec = loadBundle(api);
      const described = [
        ...operationsOf(api, spec).map((o) => o.operation),
        ...Object.values(spec.webhooks ?? {}).map((w: any) => w.post),
      ];
      for (const operation of described)
        expect(operation.description, operation.operationId).not.toMatch(/^seed \d{3}/i);
      if (api === 'v1')
        for (const o of described) expect(o['x-seed'], o.operationId ?? o.summary).toBeDefined();
    }
  });

  it.each([
    ['v1', 'The Integration REST API (v1)', 'X-API-KEY', 'seed-001-integration-rest-api'],
    ['v2', 'The MCP backend API (v2)', 'X-MCP-Key', 'seed-000-mcp-tool-interface'],
    ['admin', "The mock's admin API", 'Authorization: Bearer', 'seed-000-mcp-tool-interface'],
  ] as const)(
    "%s: the reference's introduction names the API to its reader, says how to authenticate and links the requirements",
    (api, opening, auth, seed) => {
      const { description } = loadBundle(api).info;
      expect(description.startsWith(opening), description.slice(0, 80)).toBe(true);
      expect(description).toContain(auth);
      // No "as described by seed 001": the requirements are a document the reader can open…
      expect(description).not.toMatch(/\b(described by|per|in) seed \d{3}|^\(?seed \d{3}/im);
      expect(description).toContain(`](../../docs/requirements/${seed}.md)`);
      // …which, on the site, is its page.
      const { spec } = readerSpec(api, loadBundle(api), seedResolver(seedPages()), SITE_PAGES);
      expect(spec.info.description).toContain(`](${seed}.html)`);
      expect(spec.info.description).not.toContain('](../');
      if (api !== 'admin') {
        expect(description).toContain('x-assumed: true');
        expect(spec.info.description).toContain('](assumptions.html)');
      }
    },
  );

  it('links of a contract written for the repository lead to pages of the site, or keep their words', () => {
    const text =
      'See [seed 001](../../docs/requirements/seed-001-integration-rest-api.md#users), [the mock](../../docs/mock.md), ' +
      '[the tools](../../mcp-schema/README.md), [the numbers](../../bench/RESULTS.md) and [Redocly](https://redocly.com).';
    expect(siteLinks('v1', text, SITE_PAGES)).toBe(
      'See [seed 001](seed-001-integration-rest-api.html#users), [the mock](mock.html), ' +
        '[the tools](tools.html), the numbers and [Redocly](https://redocly.com).',
    );
  });

  it('every x-seed names exactly one section of a seed document, which the Source line links to', () => {
    const resolveSeed = seedResolver(seedPages());
    const citations = API_NAMES.flatMap(
      (api) => JSON.stringify(loadBundle(api)).match(/"x-seed":("[^"]*"|\[[^\]]*\])/g) ?? [],
    ).flatMap((m) => [JSON.parse(m.slice('"x-seed":'.length))].flat() as string[]);
    expect(citations.length).toBeGreaterThan(50);
    const pages = new Map(seedPages().map((p) => [p.name, p]));
    for (const citation of citations) {
      const { href } = resolveSeed(citation);
      const [page, id] = href.split('#');
      expect(
        pages.get(page ?? '')?.headings.map((h) => h.id),
        citation,
      ).toContain(id);
    }
    expect(resolveSeed('seed 001, Endpoints > Users').href).toBe('seed-001-integration-rest-api.html#users');
    expect(resolveSeed('seed 000, Endpoints > AI tools').href).toMatch(
      /^seed-000-mcp-tool-interface\.html#ai-tools/,
    );
    expect(() => resolveSeed('seed 001, Endpoints > Unicorns')).toThrow(/no heading/);
    expect(() => resolveSeed('seed 000, MCP key')).toThrow(/several headings/);
    expect(() => resolveSeed('Seed one, Users')).toThrow(/seed NNN/);
  });

  it('the reference shows each operation with its Source line, its samples and its Try it place', () => {
    const resolveSeed = seedResolver(seedPages());
    const { spec, tryIt } = readerSpec('v1', loadBundle('v1'), resolveSeed, SITE_PAGES);
    const listCourses = spec.paths['/courses'].get;
    expect(listCourses.description).toContain(
      '<p class="lmskit-source">Source: <a href="seed-001-integration-rest-api.html#courses-and-assignments">seed 001, Endpoints › Courses and assignments</a></p>',
    );
    expect(listCourses.description).toContain('<div class="lmskit-try" data-operation="listCourses"></div>');
    expect(listCourses['x-codeSamples']).toHaveLength(3);
    expect(tryIt.operations.listCourses).toMatchObject({ method: 'GET', path: '/courses' });
    expect(Object.keys(tryIt.operations)).toHaveLength(operationsOf('v1', spec).length);
    expect(spec.components.schemas.Course.description).toContain(
      'Source: <a href="seed-001-integration-rest-api.html#course">',
    );
  });
});

describe('assumed choices (docs/adr-0002: every x-assumed mark is listed)', () => {
  it.each(API_NAMES.map((api) => [api]))(
    '%s: every mark appears once, under its operation or as shared, with links into the reference',
    (api) => {
      const spec = loadBundle(api);
      const section = apiAssumptions(api, api, spec);
      expect(section.match(/<li>/g)?.length).toBe(collectAssumptions(spec).length);
      for (const { operation } of operationsOf(api, spec)) {
        const href = operationHref(api, operation);
        const owns = section.includes(`id="${api}-${String(operation.operationId).toLowerCase()}"`);
        if (owns) expect(section).toContain(`href="${href}"`);
      }
      expect(section).not.toMatch(/paths\/\//);
    },
  );
});

describe('tool examples (seed 000, Endpoints: each tool maps onto its backend operations)', () => {
  const v2 = loadBundle('v2');
  const ajv = createToolAjv();
  it.each(loadTools().map((t) => [t.name, t] as const))(
    '%s: the example arguments and result, taken from the backend examples, are valid for the tool',
    (_, tool) => {
      const example = toolExample(tool, v2);
      const input = ajv.compile(tool.inputSchema);
      const output = ajv.compile(tool.outputSchema);
      expect(input(example.arguments), JSON.stringify(input.errors)).toBe(true);
      expect(output(example.result), JSON.stringify(output.errors)).toBe(true);
    },
  );
});

describe('written pages', () => {
  it('anchors headings as GitHub does, so links written for the repository land on the site too', () => {
    const slug = slugger();
    expect(slug('The MCP backend (/api/v2)')).toBe('the-mcp-backend-apiv2');
    expect(slug('Driving it from tests: the admin API')).toBe('driving-it-from-tests-the-admin-api');
    expect(slug('Users')).toBe('users');
    expect(slug('Users')).toBe('users-1');
  });

  it('every link of every page leads to a page of the site (and its heading), or is not a link', () => {
    const pages = markdownSources().map((s) => renderMarkdown(s, SITE_PAGES));
    const ids = new Map(pages.map((p) => [p.name, new Set(p.headings.map((h) => h.id))]));
    let checked = 0;
    for (const page of pages) {
      for (const [, href] of page.html.matchAll(/<a href="([^"]+)"/g)) {
        if (/^https?:/.test(href ?? '')) continue;
        const [name = '', fragment] = (href ?? '').split('#');
        const target = name || page.name;
        expect(SITE_PAGES.has(target), `${page.source}: ${href}`).toBe(true);
        if (fragment && ids.has(target))
          expect(ids.get(target)?.has(fragment), `${page.source}: ${href}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('every link and picture of the repository’s markdown, and of the contracts’ introductions, resolves to a file of the repository and its heading', () => {
    const links = [...markdownLinks(), ...contractLinks()];
    expect(links.filter((l) => !/^[a-z]+:/i.test(l.href)).length).toBeGreaterThan(100);
    expect(unresolved(links)).toEqual([]);
  });

  it('a link to a page only the built site has, or to a heading a file lacks, is found', () => {
    const links = linksOf(
      'docs/guide.md',
      '# Guide\n\nSee the [assumed choices](assumptions.html), [faults](mock.md#faults), [nope](mock.md#nope), [top](#documented-versus-assumed) and [Redocly](https://redocly.com).\n',
    );
    expect(unresolved(links)).toEqual([
      'docs/guide.md: assumptions.html (docs/assumptions.html is no file of the repository)',
      'docs/guide.md: mock.md#nope (docs/mock.md has no such heading)',
    ]);
  });

  it('turns links to repository files, contracts and guides into links to their pages', () => {
    const guide = renderMarkdown('docs/guide.md', SITE_PAGES);
    expect(guide.name).toBe('index.html');
    expect(guide.html).toContain('href="v1.html"');
    expect(guide.html).toContain('href="tools.html"');
    expect(guide.html).toContain('href="mock.html"');
    const page = renderMarkdown(
      'docs/example.md',
      SITE_PAGES,
      '# Example\n\nSee [the numbers](../bench/RESULTS.md), [webhooks](mock.md#webhooks) and [the tools](../mcp-schema/README.md).\n',
    );
    expect(page.html).toContain('<span title="../bench/RESULTS.md, in the repository">the numbers</span>');
    expect(page.html).toContain('<a href="mock.html#webhooks">webhooks</a>');
    expect(page.html).toContain('<a href="tools.html">the tools</a>');
    // A generated page is named by the source that makes it; a page of the built site is no link.
    const generated = renderMarkdown(
      'docs/example.md',
      SITE_PAGES,
      '# Example\n\nThe [assumed choices](../lib/docs-site/assumptions.ts), [the same](assumptions.html).\n',
    );
    expect(generated.html).toContain('<a href="assumptions.html">assumed choices</a>');
    expect(generated.html).not.toContain('<a href="assumptions.html">the same</a>');
    const requirements = renderMarkdown('docs/requirements/README.md', SITE_PAGES);
    expect(requirements.name).toBe('requirements.html');
    expect(requirements.html).toContain('href="seed-000-mcp-tool-interface.html"');
    expect(requirements.html).toContain('href="adr-0002-defaults-where-the-seeds-are-silent.html"');
  });
});

describe('pictures of the written pages', () => {
  it('are carried into the site beside the pages that show them, under their path below docs/', () => {
    const console = renderMarkdown('docs/console.md', SITE_PAGES);
    expect(console.images.get('docs/screenshots/console-tenant-1280.png')).toBe(
      'screenshots/console-tenant-1280.png',
    );
    expect(console.html).toMatch(/<img src="screenshots\/console-tenant-1280\.png" alt="Tenant: [^"]+">/);
    expect(console.html).not.toContain('lmskit-image');
    expect(console.images.size).toBeGreaterThanOrEqual(7);
    const page = renderMarkdown(
      'docs/example.md',
      SITE_PAGES,
      '# Example\n\n![gone](screenshots/nope.png) ![remote](https://example.com/a.png) ![logo](../console/index.html)\n',
    );
    // A missing picture, or one on another host (the site loads nothing from elsewhere), is named, not shown.
    expect(page.html).toContain('<span class="lmskit-image" title="screenshots/nope.png">[gone]</span>');
    expect(page.html).toContain('[remote]</span>');
    expect(page.images.get('console/index.html')).toBe('files/console/index.html');
  });
});

describe('search (one index for the whole site)', () => {
  it('indexes a page by its headings and finds a term on any page', () => {
    const docs = [
      ...htmlSections(
        'mock.html',
        'The mock',
        '<h1 id="the-mock">The mock</h1><p>Start it.</p><h2 id="webhooks">Webhooks</h2><p>Receivers get signed events.</p>',
      ),
      { url: 'v1.html#/users/blockuser', title: 'Ban a user', page: 'v1', text: 'POST /users/blocked' },
    ];
    expect(docs.map((d) => d.url)).toEqual(['mock.html', 'mock.html#webhooks', 'v1.html#/users/blockuser']);
    const script = searchIndexScript(docs);
    const data = JSON.parse(script.slice('window.lmskitSearch = '.length, -2));
    const index = MiniSearch.loadJS(data.index, data.options);
    expect(index.search('signed')[0]?.url).toBe('mock.html#webhooks');
    expect(index.search('ban', { prefix: true })[0]?.url).toBe('v1.html#/users/blockuser');
  });
});

/** Folders of the repository that hold no markdown of its own. */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'site', 'coverage']);

/** Every markdown file of the repository (README.md, docs/, the folders' READMEs), repository paths. */
function repositoryMarkdown(dir = ''): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && !NOT_SOURCES.has(e.name))
    .flatMap((e) => {
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) return repositoryMarkdown(path);
      return e.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

/** The links and pictures of one markdown file (what looks like one inside code is none), as written. */
function linksOf(source: string, markdown: string): { source: string; href: string }[] {
  const hrefs: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') hrefs.push(token.href);
    if (token.type === 'html')
      for (const [, href] of token.raw.matchAll(/\s(?:href|src)="([^"]+)"/g)) hrefs.push(href ?? '');
  });
  return hrefs.map((href) => ({ source, href }));
}

const markdownLinks = () =>
  repositoryMarkdown().flatMap((file) => linksOf(file, readFileSync(join(ROOT, file), 'utf8')));

/** The links of the contracts' root files, where the introduction and the tags are written. */
function contractLinks(): { source: string; href: string }[] {
  return API_NAMES.flatMap((api) => {
    const spec = loadBundle(api);
    const texts = [spec.info.description, ...(spec.tags ?? []).map((t: Node) => t.description)];
    return texts.flatMap((text) =>
      [...String(text ?? '').matchAll(/\]\(([^)\s]+)/g)].map((m) => ({
        source: `openapi/${api}/openapi.yaml`,
        href: m[1] ?? '',
      })),
    );
  });
}

/**
 * The links that lead nowhere in the repository, each with why: no such file, or no such heading in a
 * markdown file (a link to another site is not checked here).
 */
function unresolved(links: { source: string; href: string }[]): string[] {
  const problems: string[] = [];
  for (const { source, href } of links) {
    const target = repositoryTarget(source, href);
    if (target === undefined && !href.startsWith('#')) continue;
    const file = target ?? source;
    if (!existsSync(join(ROOT, file))) {
      problems.push(`${source}: ${href} (${file} is no file of the repository)`);
      continue;
    }
    const fragment = href.includes('#') ? decodeURIComponent(href.slice(href.indexOf('#') + 1)) : '';
    if (fragment && file.endsWith('.md') && !headingIds(file).has(fragment))
      problems.push(`${source}: ${href} (${file} has no such heading)`);
  }
  return problems;
}

/** The heading anchors of a markdown file, as GitHub makes them. */
const headingIds = (file: string) => new Set(renderMarkdown(file, SITE_PAGES).headings.map((h) => h.id));
