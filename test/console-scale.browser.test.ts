// The console's Data page over the 100 000-user scale seed (docs/console.md, Data: paging happens on
// the server), in headless Chromium against the real `lmskit mock --seed-scale`: the assignments are
// paged, filtered by learner, course and status, and a row opens its learner; every page shows what
// the admin API answers for the same filters, and no request leaves the mock's host.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdBack, launchBrowser } from './browser.ts';
import { freePort, type RunningProcess, startLmskit } from './e2e/process.ts';

const SCALE = 'users=100000,courses=1000,assignments=500000';
let mock: RunningProcess;
let browser: Browser;
let page: Page;
let base = '';
let token = '';
const foreign: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  mock = await startLmskit(['mock', '--port', String(port), '--seed-scale', SCALE], /^ {2}state: /m);
  base = `http://127.0.0.1:${port}`;
  const link = /^ {2}console: (\S+)$/m.exec(mock.output())?.[1];
  if (!link) throw new Error(`the banner has no console link:\n${mock.output()}`);
  token = decodeURIComponent(link.split('#token=')[1] ?? '');
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('request', (request) => {
    if (!request.url().startsWith(base)) foreign.push(request.url());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(link);
  await page.locator('nav[aria-label="Pages"] a[href="#requests"][aria-current="page"]').waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  mock?.child.kill('SIGTERM');
  await mock?.exited;
});

/** The same page from the admin API the console uses. */
const listed = async (query: string) => {
  const response = await fetch(`${base}/__admin/tenants/demo/assignments?limit=25&${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return (await response.json()) as {
    assignments: { userId: number; courseId: number; status: string }[];
    total: number;
  };
};
const rows = () => page.locator('table[aria-label="assignments"] tbody tr');
const shownIds = async () => await rows().evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
const ids = (page: Awaited<ReturnType<typeof listed>>) =>
  page.assignments.map((a) => `${a.userId}/${a.courseId}`);
const pager = () => page.locator('span[aria-label="Page"]');
/** Waits until the pager reads exactly `text` ("of 5" must not match "of 500000"). */
const pagerReads = (text: string) =>
  pager()
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor();

describe('the console’s assignments at the 100 000-user scale (docs/console.md, Data)', () => {
  it('pages all 500 000 assignments 25 at a time', async () => {
    await page.click('nav[aria-label="Pages"] a[href="#data"]');
    await page.getByRole('button', { name: 'assignments' }).click();
    await pagerReads('1–25 of 500000');
    expect(await shownIds()).toEqual(ids(await listed('offset=0')));
    await page.getByRole('button', { name: 'Next' }).click();
    await pagerReads('26–50 of 500000');
    expect(await shownIds()).toEqual(ids(await listed('offset=25')));
  });

  it('names the rows on screen while the next page is on its way (docs/console.md, Data)', async () => {
    const firstPage = await holdBack(page, /\/assignments\?(.*&)?offset=0(&|$)/);
    try {
      await page.getByRole('button', { name: 'Previous' }).click();
      await firstPage.requested;
      expect(await pager().innerText()).toBe('26–50 of 500000');
      expect(await shownIds()).toEqual(ids(await listed('offset=25')));
    } finally {
      await firstPage.deliver();
    }
    await pagerReads('1–25 of 500000');
    expect(await shownIds()).toEqual(ids(await listed('offset=0')));
  });

  it('shows the learner chosen last, whichever learner’s answer comes last (docs/console.md, Data)', async () => {
    const detail = page.locator('article[aria-label="User detail"]');
    const row = (userId: number) =>
      page.locator(`table[aria-label="assignments"] tbody tr[data-id^="${userId}/"]`).first();
    const first = await holdBack(page, /\/tenants\/demo\/users\/1$/);
    try {
      await row(1).click();
      await first.requested;
      await row(2).click();
      await detail.locator('h3', { hasText: '(u2,' }).waitFor();
    } finally {
      await first.deliver();
    }
    await first.settle();
    expect(await detail.locator('h3').innerText()).toContain('(u2,');
  });

  it('filters by learner, then by status, and a row opens the learner with their assignments', async () => {
    const form = page.locator('form[aria-label="Assignment filters"]');
    await form.locator('input[name="userId"]').fill('u77');
    await form.getByRole('button', { name: 'Filter' }).click();
    const hers = await listed('userId=u77');
    expect(hers.total).toBeGreaterThan(0);
    await pagerReads(`1–${Math.min(25, hers.total)} of ${hers.total}`);
    expect(await shownIds()).toEqual(ids(hers));

    await form.locator('input[name="userId"]').fill('');
    await form.locator('input[name="courseId"]').fill('3');
    await form.getByRole('button', { name: 'Filter' }).click();
    await form.locator('select[name="status"]').selectOption('finished');
    const finished = await listed('courseId=3&status=finished');
    expect(finished.total).toBeGreaterThan(0);
    await pagerReads(`1–${Math.min(25, finished.total)} of ${finished.total}`);
    expect(await shownIds()).toEqual(ids(finished));
    for (const status of await rows().locator('td.status').allInnerTexts()) expect(status).toBe('finished');

    const first = finished.assignments[0];
    await rows().first().click();
    const detail = page.locator('article[aria-label="User detail"]');
    await detail.locator(`tr[data-id="${first?.courseId}"]`).waitFor();
    expect(await detail.locator('h3').innerText()).toContain(`(u${first?.userId},`);
  });

  it('names a learner the tenant does not have, in the admin API’s words', async () => {
    const form = page.locator('form[aria-label="Assignment filters"]');
    await form.locator('input[name="courseId"]').fill('');
    await form.locator('input[name="userId"]').fill('nobody');
    await form.getByRole('button', { name: 'Filter' }).click();
    await page.locator('p[role="alert"]', { hasText: 'NOT_FOUND' }).waitFor();
    expect(await rows().count()).toBe(0);
  });

  it('made no request to any other host and raised no script error', () => {
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
