// `npm run console:screenshots`: the pictures of docs/console.md, one per page of the console, taken
// in the Chromium the browser tests use against an in-process mock over the demo seed, after a little
// traffic (a v1 read, a v2 write refused to a read-only licence, a generation job, a webhook receiver).
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createAdminClient } from '../lib/admin-client.ts';
import { ROOT } from '../lib/paths.ts';
import { createApp } from '../mock/app.ts';
import { VirtualClock } from '../mock/domain/clock.ts';
import { Platform } from '../mock/domain/platform.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';
import { loadSeed } from '../mock/seed/index.ts';
import { launchBrowser } from '../test/browser.ts';

const OUT = join(ROOT, 'docs', 'screenshots');
const TOKEN = 'screenshots';

const seed = loadSeed('demo');
const platform = new Platform(new VirtualClock({ start: seed.now, frozen: true }), loadSeed);
platform.load(seed);
const { app } = createApp({ platform, adminToken: TOKEN, version: 'screenshots' });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
await admin.POST('/tenants/{tenantId}/webhooks', {
  params: { path: { tenantId: 'demo' } },
  body: { url: 'http://127.0.0.1:9/hooks', secret: 'example-secret' },
});

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
  const shoot = async (name: string) => {
    await page.screenshot({ path: join(OUT, name) });
    console.log(`docs/screenshots/${name}`);
  };
  const open = async (name: string) => {
    await page.click(`nav[aria-label="Pages"] a[href="#${name}"]`);
    await page.locator(`nav[aria-label="Pages"] a[href="#${name}"][aria-current="page"]`).waitFor();
  };

  await page.goto(`${base}/console/#token=${TOKEN}`);
  await page.locator('table.journal tbody tr', { hasText: '/api/v2/users/banned' }).first().click();
  await page.locator('article[aria-label="Request detail"] h3 .status', { hasText: '403' }).waitFor();
  await shoot('console-requests.png');

  await open('tenant');
  await page.locator('table[aria-label="MCP keys"] tbody tr').first().waitFor();
  await shoot('console-tenant.png');

  await open('data');
  await page.locator('table[aria-label="users"] tbody tr', { hasText: 'lena@' }).click();
  await page.locator('article[aria-label="User detail"] h3', { hasText: 'Lena' }).waitFor();
  await shoot('console-data.png');

  await open('time');
  await page.locator('table[aria-label="Generation jobs"] tbody tr').first().waitFor();
  await shoot('console-time.png');

  await open('webhooks');
  await page.locator('table[aria-label="Receivers"] tbody tr').first().waitFor();
  await shoot('console-webhooks.png');

  await open('faults');
  await page.locator('form[aria-label="New fault"]').waitFor();
  await shoot('console-faults.png');
} finally {
  await browser.close();
  server.close();
}
