// The docs site in headless Chromium, as a reader uses it (docs/adr-0003): built once from the
// contracts, opened from disk with every other request refused, and served by an in-process mock for
// "Try it", the home page's address, the pictures and the phone-width checks. One browser and one
// build serve every check.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Site, writeDocsSite } from '../lib/docs-site/index.ts';
import { navLinks } from '../lib/docs-site/nav.ts';
import { contractFile, operationHref, operationsOf } from '../lib/docs-site/reference.ts';
import { API_NAMES, type ApiName, ROOT } from '../lib/paths.ts';
import { absentToolNames, loadTools } from '../lib/tool-schemas.ts';
import { mockDocs } from '../mock/http/docs.ts';
import { DEMO_SITE_API_KEY } from '../mock/seed/demo.ts';
import { launchBrowser } from './browser.ts';
import { loadBundle } from './helpers.ts';
import { type Harness, startHarness } from './mock/harness.ts';

const WAIT = 60_000;
const REFERENCES = new Set(API_NAMES.map((api) => `${api}.html`));

/** Every route of a reference page (`v1.html#/users/blockuser`) → the heading it must show. */
function routes(): Map<string, string> {
  const map = new Map<string, string>();
  for (const api of API_NAMES) {
    const spec = loadBundle(api);
    for (const { operation } of operationsOf(api, spec))
      map.set(operationHref(api, operation), operation.summary);
    for (const [name, item] of Object.entries<any>(spec.webhooks ?? {}))
      map.set(`${api}.html#/webhooks/${name.toLowerCase()}`, item.post.summary);
  }
  return map;
}

/** The request sample of an operation: the first code block of its right-hand panel. */
const REQUEST_SAMPLE = '[data-testid="right-panel"] [data-component-name="CodeBlock/CodeBlock"]';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('docs site in a browser', () => {
  let site: Site;
  let dir = '';
  let browser: Browser;
  let mock: Harness;
  const ROUTES = routes();

  beforeAll(async () => {
    // The site as the mock serves it: built by `lmskit docs` once for these contracts and guides, and
    // kept on disk (docs/README.md), so this run's other tests of /docs/ build it no second time.
    site = await mockDocs().load();
    dir = await mkdtemp(join(tmpdir(), 'lmskit-site-'));
    await writeDocsSite(site, dir);
    browser = await launchBrowser();
    mock = await startHarness('demo', { requestsPerMinute: 0 }, async () => site);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const fileUrl = (name: string) => pathToFileURL(join(dir, name)).href;

  /**
   * Opens a page; only `allowed` URLs load, anything else is recorded and refused (from disk the site
   * must need no network at all). Script errors are collected too.
   */
  async function open(url: string, allowed = /^(file|data|blob):/, viewport = { width: 1280, height: 900 }) {
    const page = await browser.newPage({ viewport });
    const external: string[] = [];
    const errors: string[] = [];
    await page.route('**/*', (route) => {
      const target = route.request().url();
      if (allowed.test(target)) return route.continue();
      external.push(target);
      return route.abort();
    });
    page.on('pageerror', (e) => errors.push(e.message));
    // What a Content-Security-Policy refused (Chromium reports each on the console): none may be.
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
    // Every wait below is on the page's state; this bound only turns a page that never gets there
    // into a failure naming what it waited for, and is wide enough for a busy machine.
    page.setDefaultTimeout(WAIT);
    await page.goto(url);
    return { page, external, errors };
  }

  /**
   * One page for a walk over many URLs (a page each would start a renderer each): `visit` loads the
   * next URL and starts its lists of refused requests and script errors afresh.
   */
  async function walker(allowed?: RegExp, viewport?: { width: number; height: number }) {
    const opened = await open('about:blank', allowed, viewport);
    return {
      ...opened,
      async visit(url: string) {
        opened.external.length = 0;
        opened.errors.length = 0;
        await opened.page.goto(url);
      },
    };
  }

  /**
   * The header of the page open in `page`, as every page shows it: every API and guide in the one
   * list, the current page marked, and one search box, which Ctrl+K reaches (a reference shows no
   * second search of Redoc's own, "Search Ctrl+K").
   */
  async function expectHeader(page: Page, name: string) {
    const expected = ['index.html', ...navLinks().map((l) => l.href)];
    const header = page.locator('header.lmskit-header');
    await header.waitFor({ state: 'visible' });
    expect(
      await header.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      name,
    ).toEqual(expected);
    await expect(page.locator('#lmskit-search').isVisible(), name).resolves.toBe(true);
    expect(await page.evaluate(() => /Ctrl\s*\+\s*K/.test(document.body.innerText)), name).toBe(false);
    await page.keyboard.press('Control+K');
    expect(await page.evaluate(() => document.activeElement?.id), name).toBe('lmskit-search');
    if (expected.includes(name))
      expect(await header.locator('a[aria-current="page"]').getAttribute('href'), name).toBe(name);
  }

  /** Waits until Redoc has taken over the prerendered page (React marks the root it hydrated). */
  const hydrated = (page: Page) =>
    page.waitForFunction(() =>
      Object.keys(document.getElementById('redoc') ?? {}).some((k) => k.startsWith('__reactContainer')),
    );

  /**
   * Opens a route of the reference already loaded in `page`, waits until the operation's section
   * shows its heading, and returns that section. (Redoc shows a tag's operations on one page, each in
   * a section named by its route, and scrolls to the one the route names.)
   */
  async function showRoute(page: Page, href: string) {
    const heading = ROUTES.get(href);
    if (!heading) throw new Error(`${href} is no operation of the references`);
    const hash = href.slice(href.indexOf('#'));
    await page.evaluate((h) => {
      window.location.hash = h;
    }, hash);
    const section = page.locator(`[data-section-id="${hash.slice(1)}"]`);
    await section
      .locator('h2', { hasText: new RegExp(`^${escapeRegExp(heading)}`) })
      .first()
      .waitFor({ state: 'visible' })
      .catch((e: Error) => {
        throw new Error(`${href} does not show "${heading}": ${e.message}`);
      });
    return section;
  }

  it('has the guide, the three references, the tools, the assumed choices, the guides and the seeds', () => {
    expect([...site.keys()].filter((n) => n.endsWith('.html'))).toEqual(
      expect.arrayContaining([
        'index.html',
        'v1.html',
        'v2.html',
        'admin.html',
        'tools.html',
        'assumptions.html',
        'mock.html',
        'mcp.html',
        'conformance.html',
        'requirements.html',
        'seed-000-mcp-tool-interface.html',
        'seed-001-integration-rest-api.html',
      ]),
    );
  });

  it(
    "every written page shows the one header with every API and guide, and one search box; at 1280 px a flag, option or field in a table's first column is on one line (`--recover`, never `--` / `recover`)",
    async () => {
      // The references show the same header: their own test below checks it.
      const walk = await walker();
      for (const name of [...site.keys()].filter((n) => n.endsWith('.html') && !REFERENCES.has(n))) {
        await walk.visit(fileUrl(name));
        await expectHeader(walk.page, name);
        const broken = await walk.page.evaluate(() =>
          [...document.querySelectorAll('.lmskit-page td:first-child code')]
            .filter((code) => code.getClientRects().length > 1)
            .map((code) => code.textContent),
        );
        expect(broken, name).toEqual([]);
        expect(walk.external, name).toEqual([]);
        expect(walk.errors, name).toEqual([]);
      }
      await walk.page.close();
    },
    WAIT * 4,
  );

  it.each([
    ['webhook', 'mock.html#webhooks'],
    ['deadline', 'mock.html#time-deadlines-overdue-courses-and-jobs'],
    ['rate limit', 'mock.html#limits-rate-limits-quotas-and-failed-logins'],
    ['fixtures', 'mock.html#fixtures'],
    ['ban', 'mock.html#a-ban-and-course-access'],
  ])(
    'the search for "%s" shows the guide\'s section about it near the top, among the first four results',
    async (query, section) => {
      const { page } = await open(fileUrl('index.html'));
      await page.locator('#lmskit-search').fill(query);
      const results = page.locator('#lmskit-results a');
      await results.first().waitFor({ state: 'visible' });
      const hrefs = await results.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      // Near the top: beside the operations named for the topic ("ban": v1's and v2's "Ban a user" and
      // the ban_user tool), before any reference that only mentions it.
      expect(hrefs.slice(0, 4), hrefs.join(' ')).toContain(section);
      await page.close();
    },
  );

  it('the search loads its index when the reader first comes to it, and says so when it cannot', async () => {
    const { page } = await open(fileUrl('mock.html'));
    expect(await page.evaluate(() => 'lmskitSearch' in window)).toBe(false);
    await page.close();
    // A page whose index cannot be fetched (the route refuses it) tells the reader in the results.
    const without = await open(fileUrl('mock.html'), /^(file|data|blob):(?!.*search-index\.js)/);
    await without.page.locator('#lmskit-search').fill('webhook');
    await expect(without.page.locator('#lmskit-results .empty').textContent()).resolves.toBe(
      'The search is not available: search-index.js did not load.',
    );
    expect(without.errors).toEqual([]);
    await without.page.close();
  });

  it(
    'the header search finds what is on any page: an operation from a guide, a guide section from a reference',
    async () => {
      const { page, errors } = await open(fileUrl('index.html'));
      await page.locator('#lmskit-search').fill('ban a user');
      const results = page.locator('#lmskit-results a');
      await results.first().waitFor({ state: 'visible' });
      const hrefs = await results.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(expect.arrayContaining(['v1.html#/users/blockuser', 'tools.html#ban_user']));
      // Arrow down to the reference's result and open it with Enter.
      for (let i = 0; i <= hrefs.indexOf('v1.html#/users/blockuser'); i++)
        await page.keyboard.press('ArrowDown');
      await Promise.all([page.waitForURL(/v1\.html#\/users\/blockuser$/), page.keyboard.press('Enter')]);
      await hydrated(page);
      await page
        .locator('[data-section-id="/users/blockuser"] h2', { hasText: /^Ban a user$/ })
        .waitFor({ state: 'visible' });

      await page.locator('#lmskit-search').fill('webhook receivers');
      await results.first().waitFor({ state: 'visible' });
      expect(await results.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toContain(
        'mock.html#webhooks',
      );
      await page.locator('#lmskit-search').fill('zzzqqq');
      await page.locator('#lmskit-results .empty').waitFor({ state: 'visible' });
      expect(errors).toEqual([]);
      await page.close();
    },
    WAIT * 2,
  );

  it.each(API_NAMES.map((api) => [api]))(
    '%s reference shows the header and renders every operation and webhook offline, each operation with code samples and a Try it that says how to start the mock',
    async (api: ApiName) => {
      const { page, external, errors } = await open(fileUrl(`${api}.html`));
      await hydrated(page);
      await expectHeader(page, `${api}.html`);
      const spec = loadBundle(api);
      // The download button offers the contract itself, which the site carries.
      const download = await page.locator('a[download]').first().getAttribute('href');
      expect(download).toBe(contractFile(api));
      expect(JSON.parse(String(site.get(contractFile(api))))).toEqual(spec);
      const operations = new Map(operationsOf(api, spec).map((o) => [operationHref(api, o.operation), o]));
      // Each route opened in turn: Redoc renders a section when it comes into view.
      for (const href of [...ROUTES.keys()].filter((h) => h.startsWith(`${api}.html#`))) {
        const section = await showRoute(page, href);
        const o = operations.get(href);
        if (!o) continue; // a webhook: its heading is what a link to it needs
        // What the section shows, read in one step once Redoc has rendered it.
        const shown = await section.evaluate(
          (node, { sample, id }) => {
            const tryIt = node.querySelector(`.lmskit-try[data-operation="${id}"]`);
            return {
              sample: node.querySelector(sample)?.textContent ?? '',
              tryIt: tryIt?.textContent ?? '',
              tryItLink: tryIt?.querySelector('a')?.getAttribute('href'),
              source: node.querySelector('.lmskit-source a')?.getAttribute('href'),
            };
          },
          { sample: REQUEST_SAMPLE, id: o.operation.operationId },
        );
        expect(shown.sample, href).toContain(`curl --request ${o.method.toUpperCase()}`);
        expect(shown.tryIt, href).toContain('npm start');
        expect(shown.tryItLink, href).toBe(`http://127.0.0.1:4010/docs/${href}`);
        if (o.operation['x-seed']) expect(shown.source, href).toMatch(/^seed-00[01]-[a-z-]+\.html#[\w-]+$/);
      }
      // A reader opens Try it with a click: its summary shows how to start the mock.
      const last = operationsOf(api, spec).at(-1)?.operation ?? {};
      const tryIt = (await showRoute(page, operationHref(api, last))).locator(
        `.lmskit-try[data-operation="${last.operationId}"]`,
      );
      await tryIt.locator('summary').click();
      await expect(tryIt.locator('.lmskit-try-offline').isVisible()).resolves.toBe(true);
      // The other two languages, from the language menu of the request sample.
      const first = operationsOf(api, spec)[0];
      const section = await showRoute(page, operationHref(api, first?.operation ?? {}));
      for (const [language, text] of [
        ['JavaScript', 'fetch('],
        ['Python', 'import requests'],
      ]) {
        await section
          .locator('[data-component-name="Dropdown/Dropdown"] button', {
            hasText: /^(curl|JavaScript|Python)$/,
          })
          .first()
          .click();
        await page
          .locator('[data-component-name="Dropdown/DropdownMenuItem"]', { hasText: language })
          .first()
          .click();
        // The sample is re-rendered after the click: read it until it shows the chosen language.
        await expect
          .poll(() => section.locator(REQUEST_SAMPLE).first().textContent(), {
            message: language,
            timeout: WAIT,
          })
          .toContain(text);
      }
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    },
    WAIT * 4,
  );

  it('every link of every page resolves: pages and headings exist, and links into a reference land on their operation', async () => {
    const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const into = new Set<string>();
    let checked = 0;
    for (const [name, content] of site) {
      if (!name.endsWith('.html') || typeof content !== 'string') continue;
      // On a reference page, the links are the header's and those in its descriptions (in Redoc's data).
      const hrefs = REFERENCES.has(name)
        ? [
            ...content.slice(0, content.indexOf('</header>')).matchAll(/<a [^>]*href="([^"]+)"/g),
            ...content.matchAll(/<a href=\\"([^"\\]+)\\"/g),
          ].map((m) => m[1] ?? '')
        : [...content.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1] ?? '');
      for (const href of hrefs) {
        if (/^https?:/.test(href)) continue;
        checked++;
        const [file = '', fragment] = href.split('#');
        const target = file || name;
        expect(site.has(target), `${name}: ${href}`).toBe(true);
        if (REFERENCES.has(target) && fragment?.startsWith('/')) into.add(`${target}#${fragment}`);
        else if (fragment) expect(ids(String(site.get(target))).has(fragment), `${name}: ${href}`).toBe(true);
      }
    }
    // The search index leads to the same places.
    const index = String(site.get('assets/search-index.js'));
    for (const [, url] of index.matchAll(/"url":"([^"]+)"/g)) {
      const [file = '', fragment] = (url ?? '').split('#');
      expect(site.has(file), url).toBe(true);
      if (REFERENCES.has(file)) into.add(url ?? '');
      else if (fragment) expect(ids(String(site.get(file))).has(fragment), url).toBe(true);
    }
    expect(checked).toBeGreaterThan(300);
    // A link into a reference names a route the references have, each of which the test of its
    // reference above opens and finds its heading at.
    expect(into.size).toBeGreaterThan(0);
    for (const href of into) expect(ROUTES.has(href), href).toBe(true);
  });

  it(
    'every link of the assumed-choices page names an operation of a reference, and a click lands on it',
    async () => {
      const { page } = await open(fileUrl('assumptions.html'));
      const links = await page
        .locator('main a[data-operation]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
      expect(links.length).toBeGreaterThan(50);
      // Each names a route of a reference, which the test of that reference opens.
      const unique = [...new Set(links)];
      for (const href of unique) expect(ROUTES.has(href), href).toBe(true);
      // Followed as a reader does: a click leaves the list for the reference, at the operation.
      const href = unique[0] ?? '';
      await Promise.all([
        page.waitForURL(`**/${href}`),
        page.locator(`main a[href="${href}"]`).first().click(),
      ]);
      await hydrated(page);
      await showRoute(page, href);
      await page.close();
    },
    WAIT * 4,
  );

  it('the tools page shows, per tool, scope, permission, licence, example arguments and result, and its backend operation', async () => {
    const { page, external, errors } = await open(fileUrl('tools.html'));
    const tools = loadTools();
    expect(await page.locator('section.tool').count()).toBe(tools.length);
    for (const tool of tools) {
      const section = page.locator(`section[data-tool="${tool.name}"]`);
      const text = (await section.textContent()) ?? '';
      expect(text, tool.name).toContain(tool['x-scope']);
      if (tool['x-permission']) expect(text, tool.name).toContain(tool['x-permission']);
      expect(text, tool.name).toContain(`mcpAccess ${tool['x-licence'].mcpAccess}`);
      expect(text, tool.name).toContain('Example arguments');
      expect(text, tool.name).toContain('Example result');
      const examples = await section.locator('.lmskit-example pre').allTextContents();
      expect(
        examples.map((e) => typeof JSON.parse(e)),
        tool.name,
      ).toEqual(['object', 'object']);
      const backend = await section
        .locator('a.lmskit-backend')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(backend, tool.name).toEqual(
        tool['x-backend'].map((c) =>
          operationHref('v2', { tags: [tagOf(c.operationId)], operationId: c.operationId }),
        ),
      );
    }
    for (const absent of absentToolNames()) expect(await page.textContent('body')).toContain(absent);
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await page.close();
  });

  /** Waits until every picture of the page has loaded or failed; returns the width of each as loaded. */
  const pictures = async (page: Page) => {
    await page.waitForFunction(() => [...document.images].every((img) => img.complete));
    return page
      .locator('main img')
      .evaluateAll((imgs) =>
        imgs.map((img) => ({ src: img.getAttribute('src'), width: (img as HTMLImageElement).naturalWidth })),
      );
  };

  it(
    'the console page shows its screenshots, from disk and from the mock, and every written page shows its pictures',
    async () => {
      const withPictures = [...site].filter(
        ([name, c]) => name.endsWith('.html') && String(c).includes('<img '),
      );
      expect(withPictures.map(([name]) => name)).toContain('console.html');
      const mockOrigin = new RegExp(`^(${escapeRegExp(mock.base)}/|data:|blob:)`);
      for (const [name] of withPictures)
        for (const [url, allowed] of [
          [fileUrl(name), undefined],
          [`${mock.base}/docs/${name}`, mockOrigin],
        ] as const) {
          const { page, external, errors } = await open(url, allowed);
          const shown = await pictures(page);
          if (name === 'console.html') expect(shown.length, url).toBeGreaterThanOrEqual(7);
          for (const { src, width } of shown) expect(width, `${url}: ${src}`).toBeGreaterThan(0);
          // No picture is left as its description in brackets.
          expect(await page.locator('.lmskit-image').count(), url).toBe(0);
          expect(external, url).toEqual([]);
          expect(errors, url).toEqual([]);
          await page.close();
        }
    },
    WAIT * 2,
  );

  it(
    'the home page names the port it is served on; built, it names the default port and says how to change it',
    async () => {
      const port = new URL(mock.base).port;
      const allowed = new RegExp(`^(${escapeRegExp(mock.base)}/|data:|blob:)`);
      const served = await open(`${mock.base}/docs/`, allowed);
      const box = served.page.locator('.lmskit-address');
      await expect(box.locator('pre').textContent()).resolves.toContain(`${mock.base}/openapi/v1/courses`);
      expect(await box.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
        `${mock.base}/console/`,
        `${mock.base}/`,
        `${mock.base}/docs/`,
      ]);
      expect(await box.locator('[data-lmskit-when="live"]').isVisible()).toBe(true);
      expect(await box.locator('[data-lmskit-when="static"]').isVisible()).toBe(false);
      expect(await box.locator('[data-lmskit-when="live"]').innerText()).toContain(mock.base);
      // The default port, not the start of another (a mock on 40101 names `:40101`).
      if (port !== '4010') expect(await served.page.locator('main').innerText()).not.toMatch(/:4010(?!\d)/);
      expect(served.errors).toEqual([]);
      expect(served.external).toEqual([]);
      await served.page.close();

      const built = await open(fileUrl('index.html'));
      const text = await built.page.locator('.lmskit-address').innerText();
      expect(text).toContain('http://127.0.0.1:4010/openapi/v1/courses');
      expect(text).toMatch(/default port, 4010/);
      expect(text).toContain('--port 5010');
      expect(await built.page.locator('[data-lmskit-when="live"]').isVisible()).toBe(false);
      expect(built.errors).toEqual([]);
      await built.page.close();
    },
    WAIT * 2,
  );

  it(
    'at phone width (375 px), served by the mock, no page is wider than the screen, and the navigation and the search are reachable from every page',
    async () => {
      const phone = { width: 375, height: 740 };
      const allowed = new RegExp(`^(${escapeRegExp(mock.base)}/|data:|blob:)`);
      const links = navLinks().map((l) => l.href);
      const width = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
      const walk = await walker(allowed, phone);
      const { page } = walk;
      for (const name of [...site.keys()].filter((n) => n.endsWith('.html'))) {
        await walk.visit(`${mock.base}/docs/${name}`);
        if (REFERENCES.has(name)) await hydrated(page);
        await pictures(page);
        expect(await width(page), name).toBeLessThanOrEqual(phone.width);
        // The header is one line: the name, the Menu button and the search; the list of pages opens below.
        const header = page.locator('header.lmskit-header');
        expect((await header.boundingBox())?.height, name).toBeLessThanOrEqual(56);
        await expect(page.locator('#lmskit-search').isVisible(), name).resolves.toBe(true);
        const menu = page.locator('button.lmskit-menu');
        await expect(page.locator('#lmskit-nav a').first().isVisible(), name).resolves.toBe(false);
        await menu.click();
        expect(await menu.getAttribute('aria-expanded'), name).toBe('true');
        await page.locator('#lmskit-nav a').first().waitFor({ state: 'visible' });
        // Every page of the list on the screen, read in one step.
        const boxes = await page.evaluate(
          (hrefs) =>
            hrefs.map((href) => {
              const link = document.querySelector(`#lmskit-nav a[href="${href}"]`);
              const box = link?.getBoundingClientRect();
              return {
                href,
                shown: Boolean(link?.getClientRects().length),
                left: box?.left,
                right: box?.right,
              };
            }),
          links,
        );
        for (const box of boxes)
          expect(
            box.shown && (box.left ?? -1) >= 0 && (box.right ?? Infinity) <= phone.width,
            `${name}: ${box.href}`,
          ).toBe(true);
        expect(await width(page), name).toBeLessThanOrEqual(phone.width);
        await page.keyboard.press('Escape');
        await expect(page.locator('#lmskit-nav a').first().isVisible(), name).resolves.toBe(false);
        expect(walk.external, name).toEqual([]);
        expect(walk.errors, name).toEqual([]);
      }

      // Followed as a reader does: from the menu to a guide, and the search's results on the screen.
      await walk.visit(`${mock.base}/docs/tools.html`);
      await page.locator('button.lmskit-menu').click();
      await Promise.all([
        page.waitForURL(/\/docs\/mock\.html$/),
        page.locator('#lmskit-nav a[href="mock.html"]').click(),
      ]);
      await page.locator('#lmskit-search').fill('ban a user');
      const results = page.locator('#lmskit-results');
      await results.locator('a').first().waitFor({ state: 'visible' });
      const box = await results.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= phone.width).toBe(true);
      expect(await width(page)).toBeLessThanOrEqual(phone.width);
      expect(walk.errors).toEqual([]);
      await page.close();
    },
    WAIT * 8,
  );

  it(
    'from /docs/ on the running mock, Try it on GET /openapi/v1/courses sends the request to that mock and shows its answer',
    async () => {
      const origin = mock.base;
      const allowed = new RegExp(`^${escapeRegExp(origin)}/`);
      const { page, external, errors } = await open(`${origin}/docs/v1.html#/courses/listcourses`, allowed);
      await hydrated(page);
      // Served with a policy (docs/mock.md, Host names and pages) under which Redoc and Try it still run.
      const served = await fetch(`${origin}/docs/v1.html`);
      expect(served.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(served.headers.get('content-security-policy')).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      const section = await showRoute(page, 'v1.html#/courses/listcourses');
      // The samples name the mock the page came from, not the default port.
      await expect(section.locator(REQUEST_SAMPLE).first().textContent()).resolves.toContain(
        `${origin}/openapi/v1/courses`,
      );
      const tryIt = section.locator('.lmskit-try[data-operation="listCourses"]');
      await tryIt.locator('summary').click();
      expect(await tryIt.locator('input[data-role="auth"]').inputValue()).toBe(DEMO_SITE_API_KEY);
      await tryIt.locator('button[type="submit"]').click();
      const status = tryIt.locator('.lmskit-try-status');
      await page.waitForFunction(() =>
        /^\d{3} /.test(document.querySelector('.lmskit-try-status')?.textContent ?? ''),
      );
      expect(await status.textContent()).toMatch(/^200 OK · GET .*\/openapi\/v1\/courses\?offset=20$/);
      const shown = JSON.parse((await tryIt.locator('.lmskit-try-response').textContent()) ?? '');
      expect(shown).toEqual((await mock.v1('/courses?offset=20')).body);

      // Without a key, the mock's own refusal is what the reader sees.
      await tryIt.locator('input[data-role="auth"]').fill('');
      await tryIt.locator('button[type="submit"]').click();
      await page.waitForFunction(() =>
        /^401 /.test(document.querySelector('.lmskit-try-status')?.textContent ?? ''),
      );
      expect(JSON.parse((await tryIt.locator('.lmskit-try-response').textContent()) ?? '')).toMatchObject({
        status: 401,
      });
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    },
    WAIT * 2,
  );

  it(
    'Try it on POST /openapi/v1/users succeeds sent twice in a row: the id and e-mail the platform takes once change after each send (openapi/README.md, examples)',
    async () => {
      const origin = mock.base;
      const { page, errors } = await open(
        `${origin}/docs/v1.html#/users/createuser`,
        new RegExp(`^${escapeRegExp(origin)}/`),
      );
      await hydrated(page);
      const section = await showRoute(page, 'v1.html#/users/createuser');
      const tryIt = section.locator('.lmskit-try[data-operation="createUser"]');
      await tryIt.locator('summary').click();
      const body = tryIt.locator('textarea[data-role="body"]');
      const sent: { id: string; email: string }[] = [];
      for (const _ of [1, 2]) {
        sent.push(JSON.parse(await body.inputValue()));
        await tryIt.locator('button[type="submit"]').click();
        // The status and the changed body are set in one step once the answer is in.
        await page.waitForFunction(() =>
          /^\d{3} /.test(document.querySelector('.lmskit-try-status')?.textContent ?? ''),
        );
        expect(await tryIt.locator('.lmskit-try-status').textContent()).toMatch(
          /^201 .* · the next Send changes id, email, which the platform takes once$/,
        );
      }
      expect(sent[1]?.id).not.toBe(sent[0]?.id);
      expect(sent[1]?.email).not.toBe(sent[0]?.email);
      // Both users are on the platform: each one's assignments can be listed (v1 has no user read).
      for (const { id } of sent) expect((await mock.v1(`/users/${id}/assignments`)).status).toBe(200);
      expect(errors).toEqual([]);
      await page.close();
    },
    WAIT * 2,
  );

  it('has pictures of the home page, a reference and a guide at 1280 and 375 px in docs/screenshots (npm run docs:screenshots)', async () => {
    for (const name of ['home', 'reference', 'guide'])
      for (const width of [1280, 375]) {
        const file = join(ROOT, 'docs', 'screenshots', `docs-${name}-${width}.png`);
        // A PNG's width is the first field of its IHDR chunk, at byte 16.
        expect((await readFile(file)).readUInt32BE(16), file).toBe(width);
      }
  });
});

/** The tag of a v2 operation, for its route. */
function tagOf(operationId: string): string {
  const spec = loadBundle('v2');
  const found = operationsOf('v2', spec).find((o) => o.operation.operationId === operationId);
  return String(found?.operation.tags[0]);
}
