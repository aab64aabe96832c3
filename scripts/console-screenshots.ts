// `npm run console:screenshots`: the pictures of docs/console.md, one per page of the console, taken
// in the Chromium the browser tests use against an in-process mock over the demo seed, after a little
// traffic (a v1 read, a v2 write refused to a read-only licence, a generation job, a webhook receiver on
// loopback that gets a published course's event, then the same event again from Redeliver).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createAdminClient } from '../lib/admin-client.ts';
import { ROOT } from '../lib/paths.ts';
import { VirtualClock } from '../mock/domain/clock.ts';
import { Platform } from '../mock/domain/platform.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';
import { loadSeed } from '../mock/seed/index.ts';
import { startServer } from '../mock/server.ts';
import { launchBrowser } from '../test/browser.ts';

const OUT = join(ROOT, 'docs', 'screenshots');
const TOKEN = 'screenshots';

const seed = loadSeed('demo');
const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
platform.load(seed);
const running = await startServer({ platform, adminToken: TOKEN, version: 'screenshots' });
const base = running.url;
const admin = createAdminClient(base, TOKEN);
const v2 = (path: string, json: unknown) =>
  fetch(`${base}/api/v2${path}`, {
    method: 'POST',
    headers: { 'x-mcp-key': demoMcpKey('write'), 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });

await fetch(`${base}/openapi/v1/courses?limit=3`, { headers: { 'x-api-key': DEMO_SITE_API_KEY } });
await v2('/ai/courses/generate', { prompt: 'Fire safety for warehouse staff' });
await admin.PATCH('/tenants/{tenantId}', {
  params: { path: { tenantId: 'demo' } },
  body: { mcpAccess: 'read' },
});
await v2('/users/banned', { userId: 13 });
await admin.PATCH('/tenants/{tenantId}', {
  params: { path: { tenantId: 'demo' } },
  body: { mcpAccess: 'full' },
});
// A receiver that takes every event; the server's dispatcher sends them, as `npm start` runs it.
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(204).end());
});
receiver.listen(0, '127.0.0.1');
await new Promise((resolve) => receiver.once('listening', resolve));
const tenant = { params: { path: { tenantId: 'demo' } } };
await admin.POST('/tenants/{tenantId}/webhooks', {
  ...tenant,
  body: {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    secret: 'example-secret',
  },
});
const draft = (
  await admin.GET('/tenants/{tenantId}/courses', {
    params: { path: { tenantId: 'demo' }, query: { limit: 1000 } },
  })
).data?.courses.find((c) => c.isDraft);
if (!draft) throw new Error('the demo seed has no draft course');
await admin.POST('/tenants/{tenantId}/courses/{courseId}/publish', {
  params: { path: { tenantId: 'demo', courseId: draft.id } },
});

/** A laptop and a phone: every page is taken at both (docs/console.md, On a phone). */
const SCREENS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
];

const browser = await launchBrowser();
try {
  for (const viewport of SCREENS) {
    const page = await browser.newPage({ viewport });
    const shoot = async (name: string) => {
      const file = `console-${name}-${viewport.width}.png`;
      // A table wider than a phone is shown from its first column, however a click scrolled it.
      await page.evaluate(() => {
        for (const box of document.querySelectorAll('.table-scroll')) box.scrollLeft = 0;
      });
      await page.screenshot({ path: join(OUT, file) });
      console.log(`docs/screenshots/${file}`);
    };
    const open = async (name: string) => {
      await page.click(`nav[aria-label="Pages"] a[href="#${name}"]`);
      await page.locator(`nav[aria-label="Pages"] a[href="#${name}"][aria-current="page"]`).waitFor();
    };
    /** On a phone the detail is under the list: the picture shows it. */
    const showDetail = (label: string) =>
      page.locator(`article[aria-label="${label}"]`).evaluate((e) => e.scrollIntoView({ block: 'start' }));

    await page.goto(`${base}/console/#token=${TOKEN}`);
    await page.locator('table.journal tbody tr', { hasText: '/api/v2/users/banned' }).first().click();
    await page.locator('article[aria-label="Request detail"] h3 .status', { hasText: '403' }).waitFor();
    await shoot('requests');
    if (viewport.width < 900) {
      await showDetail('Request detail');
      await shoot('requests-detail');
    }

    await open('tenant');
    await page.locator('table[aria-label="MCP keys"] tbody tr').first().waitFor();
    await shoot('tenant');

    await open('data');
    await page.locator('table[aria-label="users"] tbody tr', { hasText: 'lena@' }).click();
    await page.locator('article[aria-label="User detail"] h3', { hasText: 'Lena' }).waitFor();
    if (viewport.width < 900) await showDetail('User detail');
    await shoot('data');

    await page.getByRole('button', { name: 'assignments' }).click();
    await page
      .locator('form[aria-label="Assignment filters"] select[name="status"]')
      .selectOption('inProgress');
    await page
      .locator('table[aria-label="assignments"] tbody td.status', { hasText: 'inProgress' })
      .first()
      .waitFor();
    await page.locator('table[aria-label="assignments"] tbody tr').first().click();
    await page.locator('article[aria-label="User detail"] h3').waitFor();
    await page.evaluate(() => scrollTo(0, 0));
    await shoot('data-assignments');

    await open('time');
    await page.locator('table[aria-label="Generation jobs"] tbody tr').first().waitFor();
    await shoot('time');

    await open('webhooks');
    const deliveries = page.locator('table[aria-label="Deliveries"] tbody tr');
    await deliveries.first().locator('td.state', { hasText: 'delivered' }).waitFor();
    await deliveries.first().getByRole('button', { name: 'Redeliver' }).click();
    const again = deliveries.filter({ hasText: 'again:' }).first();
    await again.locator('td.state', { hasText: 'delivered' }).waitFor();
    await again.getByRole('button', { name: 'Request' }).click();
    await page.locator('section[aria-label="Delivery request"]').waitFor();
    await shoot('webhooks');

    await open('faults');
    await page.locator('form[aria-label="New fault"]').waitFor();
    await shoot('faults');
    await page.close();
  }
} finally {
  await browser.close();
  receiver.close();
  await running.close();
}
