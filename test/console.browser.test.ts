// The console (docs/console.md) in headless Chromium against the real `lmskit mock` process: signed in
// from the banner's link, each page clicked through, waiting on what the page shows. The pages must
// make no request to any other host (offline).
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../lib/paths.ts';
import { holdBack, launchBrowser } from './browser.ts';
import { freePort, type RunningProcess, startLmskit } from './e2e/process.ts';

/** A laptop's and a phone's width (docs/console.md, On a phone). */
const SCREEN_WIDTHS = [1280, 375];

let mock: RunningProcess;
let browser: Browser;
let page: Page;
let base: string;
let consoleLink: string;
let siteKey: string;
let writeKey: string;
const foreign: string[] = [];
const pageErrors: string[] = [];
/** What the page's Content-Security-Policy refused (Chromium reports each on the console). */
const refusedByPolicy: string[] = [];

const banner = (pattern: RegExp) => {
  const match = pattern.exec(mock.output());
  if (!match?.[1]) throw new Error(`the banner has no ${pattern}:\n${mock.output()}`);
  return match[1];
};

beforeAll(async () => {
  const port = await freePort();
  mock = await startLmskit(['mock', '--port', String(port)], /^ {2}state: /m);
  base = `http://127.0.0.1:${port}`;
  consoleLink = banner(/^ {2}console: (\S+)$/m);
  siteKey = banner(/X-API-KEY (\S+)/);
  writeKey = banner(/MCP key \(read\+write, [^)]+\): X-MCP-Key (\S+)/);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('request', (request) => {
    if (!request.url().startsWith(base)) foreign.push(request.url());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  mock?.child.kill('SIGTERM');
  await mock?.exited;
});

const open = async (name: string) => {
  await page.click(`nav[aria-label="Pages"] a[href="#${name}"]`);
  await page.locator(`nav[aria-label="Pages"] a[href="#${name}"][aria-current="page"]`).waitFor();
};
/** Requests filtered by API and status class. */
const filterRequests = async (api: string, statuses: string) => {
  await page.locator('form[aria-label="Filters"] select').first().selectOption(api);
  await page
    .locator('form[aria-label="Filters"] label', { hasText: 'Status' })
    .locator('select')
    .selectOption(statuses);
};
const v2 = (path: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${base}/api/v2${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-mcp-key': writeKey, 'content-type': 'application/json' },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });

describe('the console (docs/console.md)', () => {
  it('opens signed in from the banner’s link, with the token gone from the address bar', async () => {
    expect(consoleLink).toMatch(/\/console\/#token=/);
    await fetch(`${base}/openapi/v1/courses?limit=2`, { headers: { 'x-api-key': siteKey } });
    await page.goto(consoleLink);
    await page.locator('nav[aria-label="Pages"] a[href="#requests"][aria-current="page"]').waitFor();
    expect(page.url()).not.toContain('token=');
    // What did my client send? The v1 request is listed, and one click shows it in full.
    const row = page.locator('table.journal tbody tr', { hasText: '/openapi/v1/courses?limit=2' });
    await row.click();
    const detail = page.locator('article[aria-label="Request detail"]');
    await detail.locator('[aria-label="Request"]', { hasText: 'x-api-key' }).waitFor();
    expect(await detail.locator('[aria-label="Request"]').innerText()).toContain(`••••${siteKey.slice(-4)}`);
    expect(await detail.locator('[aria-label="Request"]').innerText()).not.toContain(siteKey);
    expect(await detail.locator('[aria-label="Contract verdict"]').innerText()).toContain('answer valid');
    await detail.getByRole('button', { name: 'Copy as curl' }).click();
    const curl = await detail.locator('[aria-label="curl command"] pre').innerText();
    expect(curl).toContain(`curl -X GET '${base}/openapi/v1/courses?limit=2'`);
    expect(curl).toContain(`x-api-key: <x-api-key ending ${siteKey.slice(-4)}>`);
  });

  it('shows the request chosen last, whichever answer comes last (docs/console.md, Requests)', async () => {
    expect((await v2('/courses/1')).status).toBe(200);
    expect((await v2('/courses/2')).status).toBe(200);
    await open('requests');
    await filterRequests('v2', '2xx');
    const row = (url: string) => page.locator('table.journal tbody tr', { hasText: url }).first();
    await row('/api/v2/courses/2').waitFor();
    const firstId = await row('/api/v2/courses/1').getAttribute('data-id');
    const first = await holdBack(page, new RegExp(`/__admin/journal/${firstId}$`));
    const title = page.locator('article[aria-label="Request detail"] h3');
    try {
      await row('/api/v2/courses/1').click();
      await first.requested;
      await row('/api/v2/courses/2').click();
      await title.filter({ hasText: '/api/v2/courses/2' }).waitFor();
    } finally {
      await first.deliver();
    }
    await first.settle();
    expect(await title.innerText()).toContain('/api/v2/courses/2');
  });

  it('switches the tenant to read, and Requests shows the v2 write it refuses with 403 and its code', async () => {
    await open('tenant');
    const access = page.locator('fieldset[aria-label="Licence"] select');
    await access.selectOption('read');
    await page.locator('p[aria-label="Licence in force"]', { hasText: 'access read' }).waitFor();
    const refused = await v2('/users/banned', { method: 'POST', json: { userId: 13 } });
    expect(refused.status).toBe(403);
    const { code } = (await refused.json()) as { code: string };

    await open('requests');
    await filterRequests('v2', '4xx');
    const row = page.locator('table.journal tbody tr', { hasText: '/api/v2/users/banned' }).first();
    await row.locator('td.status', { hasText: '403' }).waitFor();
    await row.click();
    await page
      .locator('article[aria-label="Request detail"] [aria-label="Response"]', { hasText: code })
      .waitFor();
    expect(await page.locator('table.journal tbody tr').evaluateAll((rows) => rows.length)).toBeGreaterThan(
      0,
    );
    for (const status of await page.locator('table.journal tbody td.status').allInnerTexts())
      expect(Number(status)).toBeGreaterThanOrEqual(400);

    await open('tenant');
    await access.selectOption('full');
    await page.locator('p[aria-label="Licence in force"]', { hasText: 'access full' }).waitFor();
  });

  it('creates an MCP key shown once, and revokes it', async () => {
    await page.locator('form[aria-label="New MCP key"]').getByRole('button', { name: 'Create key' }).click();
    const shown = await page.locator('p.once code').innerText();
    expect(shown).toMatch(/^lmcp_/);
    const id = await page.locator('p.once .key-id').innerText();
    const fresh = page.locator(`table[aria-label="MCP keys"] tr[data-id="${id}"]`);
    await fresh.getByRole('button', { name: 'Revoke' }).click();
    await page
      .locator(`table[aria-label="MCP keys"] tr[data-id="${id}"] button`)
      .waitFor({ state: 'detached' });
    expect(
      await page.locator(`table[aria-label="MCP keys"] tr[data-id="${id}"] td`).nth(5).innerText(),
    ).toMatch(/^\d{4}-/);
  });

  it('shows the AI calls an MCP key made today and resets the counters (docs/console.md, Tenant)', async () => {
    const regenerated = await v2('/ai/lessons/1/regenerate', { method: 'POST', json: {} });
    expect(regenerated.status).toBe(200);
    await open('requests');
    await open('tenant');
    const today = page.locator('p[aria-label="Tenant AI calls today"]');
    await today.waitFor();
    expect(Number(/: (\d+) of/.exec(await today.innerText())?.[1])).toBeGreaterThanOrEqual(1);
    expect(
      await page.locator('table[aria-label="Limits"] tbody td:nth-child(4)').allInnerTexts(),
    ).toContainEqual(expect.stringMatching(/^[1-5] of 5$/));
    await page.getByRole('button', { name: 'Reset counters' }).click();
    await page.locator('p[aria-label="Tenant AI calls today"]', { hasText: ': 0 of' }).waitFor();
    for (const cell of await page.locator('table[aria-label="Limits"] tbody td:nth-child(4)').allInnerTexts())
      expect(cell).toBe('0 of 5');
  });

  it('advances the clock and sees a generation job complete', async () => {
    const started = await v2('/ai/courses/generate', {
      method: 'POST',
      json: { prompt: 'Fire safety for warehouse staff' },
    });
    expect(started.status).toBeLessThan(300);
    await open('time');
    const job = page
      .locator('table[aria-label="Generation jobs"] tbody tr', { hasText: 'Fire safety' })
      .first();
    await job.locator('td.state', { hasText: 'queued' }).waitFor();
    await page.getByRole('button', { name: '+1 hour' }).click();
    await job.locator('td.state', { hasText: 'completed' }).waitFor();
  });

  it('pages and searches users, shows a learner’s assignments, plays progress and publishes a draft', async () => {
    await open('data');
    await page.locator('input[aria-label="Search users"]').fill('lena');
    const lena = page.locator('table[aria-label="users"] tbody tr', { hasText: 'lena@' });
    await page.locator('span[aria-label="Page"]', { hasText: 'of 1' }).waitFor();
    await lena.click();
    const detail = page.locator('article[aria-label="User detail"]');
    await detail.locator('h3', { hasText: 'Lena' }).waitFor();
    const startable = detail
      .locator('tbody tr', { has: page.getByRole('button', { name: 'Start' }) })
      .first();
    if (await startable.count()) {
      const courseId = await startable.getAttribute('data-id');
      await startable.getByRole('button', { name: 'Start' }).click();
      await detail.locator(`tr[data-id="${courseId}"] td`, { hasText: 'inProgress' }).waitFor();
    }
    // A draft to publish, found through the admin API the console uses, then searched for in the page.
    const token = decodeURIComponent(consoleLink.split('#token=')[1] ?? '');
    const listed = await fetch(`${base}/__admin/tenants/demo/courses?limit=1000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { courses } = (await listed.json()) as {
      courses: { id: number; name: string; isDraft: boolean }[];
    };
    const draft = courses.find((c) => c.isDraft);
    if (!draft) throw new Error('the demo seed has no draft course');
    // Publishing is an event the webhooks test below expects to see delivered.
    await open('webhooks');
    const receiver = await startReceiver();
    try {
      await page.locator('form[aria-label="New receiver"] input').first().fill(receiver.url);
      await page.locator('form[aria-label="New receiver"] input').nth(1).fill('console-test-secret');
      await page.getByRole('button', { name: 'Add receiver' }).click();
      await page.locator('table[aria-label="Receivers"] tbody tr', { hasText: receiver.url }).waitFor();

      await open('data');
      await page.getByRole('button', { name: 'courses' }).click();
      await page.locator('input[aria-label="Search courses"]').fill(draft.name);
      const row = page.locator(`table[aria-label="courses"] tbody tr[data-id="${draft.id}"]`);
      await row.getByRole('button', { name: 'Publish' }).click();
      await row.locator('td', { hasText: 'published' }).waitFor();

      await open('webhooks');
      await page
        .locator('table[aria-label="Deliveries"] tbody tr', { hasText: 'course.published' })
        .locator('td.state', { hasText: 'delivered' })
        .waitFor();
      // The receiver got the signed event body, naming the course the console published.
      const delivered = receiver
        .received()
        .map((b) => JSON.parse(b) as { body: { course?: { id: number } } });
      expect(delivered.some((e) => e.body.course?.id === draft.id)).toBe(true);

      // The delivery's request as the console shows it: the body the receiver got and its signature
      // with the receiver's secret (docs/console.md, Webhooks).
      await page
        .locator('table[aria-label="Deliveries"] tbody tr', { hasText: 'course.published' })
        .first()
        .getByRole('button', { name: 'Request' })
        .click();
      const shownBody = await page.locator('section[aria-label="Delivery request"] pre.body').innerText();
      expect(receiver.received()).toContain(shownBody);
      const signed = `sha256=${createHmac('sha256', 'console-test-secret').update(shownBody).digest('hex')}`;
      expect(await page.locator('section[aria-label="Delivery request"] pre.headers').innerText()).toContain(
        `x-lmskit-signature: ${signed}`,
      );
    } finally {
      receiver.server.close();
    }
  });

  it('redelivers a delivery, and the receiver gets the same event again (docs/console.md, Webhooks)', async () => {
    const receiver = await startReceiver();
    try {
      await open('webhooks');
      await page.locator('form[aria-label="New receiver"] input').first().fill(receiver.url);
      await page.locator('form[aria-label="New receiver"] input').nth(1).fill('redeliver-secret');
      await page.getByRole('button', { name: 'Add receiver' }).click();
      const receiverRow = page.locator('table[aria-label="Receivers"] tbody tr', { hasText: receiver.url });
      await receiverRow.waitFor();
      const receiverId = await receiverRow.getAttribute('data-id');
      const created = await fetch(`${base}/openapi/v1/users`, {
        method: 'POST',
        headers: { 'x-api-key': siteKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Redelivered',
          email: 'redelivered@example.test',
          password: 'password1',
          roleAlias: 'learner',
        }),
      });
      expect(created.status).toBeLessThan(300);
      const ours = page.locator('table[aria-label="Deliveries"] tbody tr', { hasText: `${receiverId}` });
      const first = ours.filter({ hasText: 'user.created' }).first();
      await first.locator('td.state', { hasText: 'delivered' }).waitFor();
      expect(receiver.received()).toHaveLength(1);
      const firstId = await first.getAttribute('data-id');

      await first.getByRole('button', { name: 'Redeliver' }).click();
      await page.locator('p[aria-label="Redelivery queued"]', { hasText: firstId ?? '' }).waitFor();
      // The new delivery is listed as sending the first one again, and is delivered by the mock.
      await ours
        .filter({ hasText: `again: ${firstId}` })
        .locator('td.state', { hasText: 'delivered' })
        .waitFor();
      expect(receiver.received()).toHaveLength(2);
      expect(receiver.received()[1]).toBe(receiver.received()[0]);
    } finally {
      receiver.server.close();
    }
  });

  it('adds and clears an injected fault', async () => {
    await open('faults');
    const form = page.locator('form[aria-label="New fault"]');
    await form.locator('input[name="path"]').fill('/openapi/v1/courses');
    await form.locator('input[name="status"]').fill('503');
    await form.getByRole('button', { name: 'Add fault' }).click();
    await page.locator('table[aria-label="Faults"] tbody tr', { hasText: '/openapi/v1/courses' }).waitFor();
    const faulted = await fetch(`${base}/openapi/v1/courses`, { headers: { 'x-api-key': siteKey } });
    expect(faulted.status).toBe(503);
    await page.getByRole('button', { name: 'Clear all faults' }).click();
    await page.locator('table[aria-label="Faults"] tbody tr').first().waitFor({ state: 'detached' });
  });

  it('removes one fault and leaves the other in force (docs/console.md, Faults and snapshots)', async () => {
    await open('faults');
    const form = page.locator('form[aria-label="New fault"]');
    for (const { path, status } of [
      { path: '/openapi/v1/courses/3', status: '500' },
      { path: '/openapi/v1/courses/4', status: '502' },
    ]) {
      await form.locator('input[name="path"]').fill(path);
      await form.locator('input[name="status"]').fill(status);
      await form.getByRole('button', { name: 'Add fault' }).click();
      await page.locator('table[aria-label="Faults"] tbody tr', { hasText: path }).waitFor();
    }
    const row = page.locator('table[aria-label="Faults"] tbody tr', { hasText: '/openapi/v1/courses/3' });
    await row.getByRole('button', { name: /^Remove / }).click();
    await row.waitFor({ state: 'detached' });
    const get = (id: number) =>
      fetch(`${base}/openapi/v1/courses/${id}`, { headers: { 'x-api-key': siteKey } });
    expect((await get(3)).status).toBe(200);
    expect((await get(4)).status).toBe(502);
  });

  it('is usable at 1280 and 375 px on every page: no sideways scroll, no overlap, a URL on one line with its whole text in its title (docs/console.md, On a phone)', async () => {
    // A URL longer than any screen is wide: a user id of 200 characters that names no one.
    await fetch(`${base}/openapi/v1/users/${'u'.repeat(200)}`, { headers: { 'x-api-key': siteKey } });
    for (const width of SCREEN_WIDTHS) {
      const screen = await browser.newPage({ viewport: { width, height: 800 } });
      screen.on('pageerror', (error) => pageErrors.push(error.message));
      await screen.goto(consoleLink);
      const names = await screen
        .locator('nav[aria-label="Pages"] a[href^="#"]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href')?.slice(1) ?? ''));
      expect(names).toContain('requests');
      for (const name of names) {
        await screen.click(`nav[aria-label="Pages"] a[href="#${name}"]`);
        await screen.locator(`nav[aria-label="Pages"] a[href="#${name}"][aria-current="page"]`).waitFor();
        await screen.locator('main h2').waitFor();
        // A page with a list and a detail: one opened, so that both are on the page.
        const opened = { requests: 'table.journal tbody tr', data: 'table[aria-label="users"] tbody tr' }[
          name
        ];
        if (opened) {
          await screen.locator(opened).first().click();
          await screen.locator('main article.detail h3').waitFor();
        }
        const at = `${name} at ${width} px`;
        expect(await screen.evaluate(() => document.documentElement.scrollWidth), at).toBeLessThanOrEqual(
          width,
        );
        const boxes = await screen
          .locator('main .split > *')
          .evaluateAll((parts) => parts.map((part) => part.getBoundingClientRect().toJSON() as DOMRect));
        for (const [i, a] of boxes.entries())
          for (const b of boxes.slice(i + 1)) {
            const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            expect(overlap, `${at}: the list and the detail overlap`).toBe(false);
          }
        if (name !== 'requests') continue;
        const urls = await screen.locator('table.journal td.url').evaluateAll((cells) =>
          cells.map((cell) => ({
            text: cell.textContent,
            title: cell.getAttribute('title'),
            lines: cell.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(cell).lineHeight),
          })),
        );
        expect(urls.length, at).toBeGreaterThan(0);
        for (const url of urls) {
          expect(url.lines, `${at}: ${url.text}`).toBeLessThan(2);
          expect(url.title, at).toBe(url.text);
        }
      }
      await screen.close();
    }
  });

  it('has pictures of every page at 1280 and 375 px in docs/screenshots (npm run console:screenshots)', async () => {
    const names = await page
      .locator('nav[aria-label="Pages"] a[href^="#"]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')?.slice(1) ?? ''));
    for (const name of names)
      for (const width of SCREEN_WIDTHS) {
        const file = join(ROOT, 'docs', 'screenshots', `console-${name}-${width}.png`);
        // A PNG's width is the first field of its IHDR chunk, at byte 16.
        expect((await readFile(file)).readUInt32BE(16), file).toBe(width);
      }
  });

  it('made no request to any other host and raised no script error', () => {
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('is served with a Content-Security-Policy that refused nothing the console does (docs/mock.md, Host names and pages)', async () => {
    const answer = await fetch(`${base}/console/`);
    expect(answer.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(answer.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(refusedByPolicy).toEqual([]);
  });
});

/** A webhook receiver on a free loopback port that answers 200 and keeps each body. */
async function startReceiver(): Promise<{ server: Server; url: string; received: () => string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: () => bodies,
  };
}
