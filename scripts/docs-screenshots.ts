// `npm run docs:screenshots`: the pictures of docs/README.md, taken from a fresh build of the site
// served by an in-process mock (so "Try it" answers), in the Chromium the browser tests use.
import { join } from 'node:path';
import { buildDocsSite } from '../lib/docs-site/index.ts';
import { ROOT } from '../lib/paths.ts';
import { VirtualClock } from '../mock/domain/clock.ts';
import { Platform } from '../mock/domain/platform.ts';
import { loadSeed } from '../mock/seed/index.ts';
import { startServer } from '../mock/server.ts';
import { launchBrowser } from '../test/browser.ts';

const OUT = join(ROOT, 'docs', 'screenshots');
/** Wide enough for Redoc's three panels; the written pages need less. */
const WIDE = { width: 1400, height: 820 };
const NARROW = { width: 1100, height: 680 };

const site = await buildDocsSite();
const seed = loadSeed('demo');
const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
platform.load(seed);
const running = await startServer({ platform, adminToken: 'screenshots', docs: async () => site });
const base = `${running.url}/docs`;

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: WIDE });
  const shoot = async (name: string) => {
    await page.screenshot({ path: join(OUT, name) });
    console.log(`docs/screenshots/${name}`);
  };
  const hydrated = () =>
    page.waitForFunction(() =>
      Object.keys(document.getElementById('redoc') ?? {}).some((k) => k.startsWith('__reactContainer')),
    );

  // The v1 reference: header, an operation with its source line, curl sample, and Try it answered.
  await page.goto(`${base}/v1.html#/courses/listcourses`);
  await hydrated();
  const tryIt = page.locator('[data-section-id="/courses/listcourses"] .lmskit-try');
  await tryIt.locator('summary').click();
  await tryIt.locator('button[type="submit"]').click();
  await page.waitForFunction(() =>
    /^200 /.test(document.querySelector('.lmskit-try-status')?.textContent ?? ''),
  );
  await page.evaluate(() =>
    document.querySelector('[data-section-id="/courses/listcourses"]')?.scrollIntoView(),
  );
  await shoot('reference-try-it.png');

  // One search across the site, from a guide.
  await page.setViewportSize(NARROW);
  await page.goto(`${base}/mock.html`);
  await page.locator('#lmskit-search').fill('ban');
  await page.locator('#lmskit-results a').first().waitFor({ state: 'visible' });
  await shoot('search.png');

  // A tool: access, parameters, example arguments and result, the backend operation.
  await page.goto(`${base}/tools.html#assign_training`);
  await shoot('tools.png');

  // The assumed choices, by API and operation, each linking into the reference.
  await page.goto(`${base}/assumptions.html#v1-listcourses`);
  await shoot('assumed-choices.png');

  // The home page, a reference and a guide at a laptop's and a phone's width (docs/README.md, On a phone).
  for (const width of [1280, 375]) {
    const screen = await browser.newPage({ viewport: { width, height: 800 } });
    for (const [name, path] of [
      ['home', 'index.html'],
      ['reference', 'v1.html#/users/createuser'],
      ['guide', 'mock.html'],
    ] as const) {
      await screen.goto(`${base}/${path}`);
      if (name === 'reference')
        await screen.waitForFunction(() =>
          Object.keys(document.getElementById('redoc') ?? {}).some((k) => k.startsWith('__reactContainer')),
        );
      const file = `docs-${name}-${width}.png`;
      await screen.screenshot({ path: join(OUT, file) });
      console.log(`docs/screenshots/${file}`);
    }
    await screen.close();
  }
} finally {
  await browser.close();
  await running.close();
}
