// The docs site: built from the contracts, opened from disk in headless Chromium
// with every network request refused, each page renders what it documents.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocsSite } from '../lib/docs-site.ts';
import { API_NAMES } from '../lib/paths.ts';
import { loadTools } from '../lib/tool-schemas.ts';
import { launchBrowser } from './browser.ts';
import { loadBundle, operations } from './helpers.ts';

const WAIT = 60_000;

describe('docs site', () => {
  let site = '';
  let browser: Browser;
  let pages: string[] = [];

  beforeAll(async () => {
    site = await mkdtemp(join(tmpdir(), 'lmskit-site-'));
    pages = await buildDocsSite(site);
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await rm(site, { recursive: true, force: true });
  });

  /** Opens a page of the site with the network cut off; collects what it tried to fetch and script errors. */
  async function open(name: string): Promise<{ page: Page; external: string[]; errors: string[] }> {
    const page = await browser.newPage();
    const external: string[] = [];
    const errors: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (/^(file|data|blob):/.test(url)) return route.continue();
      external.push(url);
      return route.abort();
    });
    page.on('pageerror', (e) => errors.push(e.message));
    // Every wait below is on the page's state; this bound only turns a page that never gets there
    // into a failure naming what it waited for, and is wide enough for a busy machine.
    page.setDefaultTimeout(WAIT);
    await page.goto(pathToFileURL(join(site, name)).href);
    return { page, external, errors };
  }

  it('has the guide, one page per API, the tools and the assumed choices', () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        'index.html',
        'v1.html',
        'v2.html',
        'admin.html',
        'tools.html',
        'assumptions.html',
      ]),
    );
  });

  it.each(API_NAMES.map((api) => [api]))(
    '%s page renders every operation offline',
    async (api) => {
      const { page, external, errors } = await open(`${api}.html`);
      const ops = operations(loadBundle(api));
      // The page is prerendered; the inlined script must still hydrate it (React marks the root it took over).
      await page.waitForFunction(() =>
        Object.keys(document.getElementById('redoc') ?? {}).some((k) => k.startsWith('__reactContainer')),
      );
      // Redoc routes each operation to `#/<tag slug>/<operationid>`; that route must show the
      // operation's page, with its summary as the heading.
      for (const { operation } of ops) {
        const tag = String(operation.tags[0]).toLowerCase().replaceAll(' ', '-');
        const hash = `#/${tag}/${String(operation.operationId).toLowerCase()}`;
        await page.evaluate((h) => {
          window.location.hash = h;
        }, hash);
        const heading = new RegExp(`^${String(operation.summary).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
        await page
          .locator('h2', { hasText: heading })
          .waitFor({ state: 'visible' })
          .catch((e: Error) => {
            throw new Error(`${api}: ${operation.operationId} at ${hash}: ${e.message}`);
          });
      }
      expect(errors).toEqual([]);
      expect(external).toEqual([]);
      await page.close();
    },
    WAIT * 4,
  );

  it('tools page shows each of the 25 tools with its scope and permission', async () => {
    const { page, external, errors } = await open('tools.html');
    const tools = loadTools();
    for (const tool of tools) {
      const section = page.locator(`section[data-tool="${tool.name}"]`);
      expect(await section.count(), tool.name).toBe(1);
      expect(await section.textContent()).toContain(tool['x-scope']);
      if (tool['x-permission']) expect(await section.textContent()).toContain(tool['x-permission']);
    }
    expect(await page.locator('section.tool').count()).toBe(25);
    expect(await page.textContent('body')).toContain('extend_deadline');
    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await page.close();
  });

  it('index page explains the APIs and links to every reference', async () => {
    const { page, external } = await open('index.html');
    for (const href of ['v1.html', 'v2.html', 'admin.html', 'tools.html', 'assumptions.html']) {
      expect(await page.locator(`main a[href="${href}"]`).count(), href).toBeGreaterThan(0);
    }
    expect(await page.textContent('main')).toContain('X-MCP-Key');
    expect(external).toEqual([]);
    await page.close();
  });

  it('assumed-choices page lists the choices of every API', async () => {
    const { page } = await open('assumptions.html');
    const rows = await page
      .locator('table')
      .evaluateAll((tables) => tables.map((t) => t.querySelectorAll('tr').length - 1));
    expect(rows).toHaveLength(4);
    for (const count of rows) expect(count).toBeGreaterThan(0);
    await page.close();
  });
});
