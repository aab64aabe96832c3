// The docs site as the mock serves it at /docs/: built once on the first request and kept, reference
// pages and the home page served with the address they were requested at, its pictures, and a clear
// page when the build fails.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocsFiles } from '../../mock/http/docs.ts';
import { type Harness, startHarness } from './harness.ts';

const REFERENCE =
  '<html><head><meta name="lmskit-mock" content="static" data-origin="http://127.0.0.1:4010"></head>' +
  "<body>curl http://127.0.0.1:4010/openapi/v1/courses<script>const d={servers:[{url:'http://127.0.0.1:4010/openapi/v1'}]}</script></body></html>";
/** The home page as lib/docs-site/home.ts writes it: the mark, the two sentences, the addresses. */
const HOME =
  '<html><head><meta name="lmskit-mock" content="static" data-origin="http://127.0.0.1:4010"></head><body>' +
  '<p data-lmskit-when="static">a mock on its default port, 4010; start it with --port</p>' +
  '<p data-lmskit-when="live" hidden>served by the mock at <code>http://127.0.0.1:4010</code></p>' +
  "<pre><code>curl -H 'X-API-KEY: k' http://127.0.0.1:4010/openapi/v1/courses</code></pre>" +
  '<a href="http://127.0.0.1:4010/console/">console</a></body></html>';
const GUIDE = '<html><body>npm start serves http://127.0.0.1:4010 by default</body></html>';
const site = (): DocsFiles =>
  new Map<string, string | Uint8Array>([
    ['index.html', HOME],
    ['mock.html', GUIDE],
    ['v1.html', REFERENCE],
    ['screenshots/console-tenant.png', new Uint8Array([137, 80, 78, 71, 1])],
    ['assets/site.css', 'body{}'],
    ['assets/logo.png', new Uint8Array([137, 80, 78, 71])],
  ]);

/** A GET with a Host header of our choosing (fetch does not let a caller set it). */
const getWithHost = (url: string, host: string) =>
  new Promise<string>((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });

describe('the docs at /docs/ (served without a build step)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('builds the site once, on the first request, however many requests wait for it', async () => {
    let builds = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    h = await startHarness('demo', { requestsPerMinute: 0 }, async () => {
      builds++;
      await gate;
      return site();
    });
    expect(builds).toBe(0);
    const answers = [
      fetch(`${h.base}/docs/`),
      fetch(`${h.base}/docs/v1.html`),
      fetch(`${h.base}/docs/assets/site.css`),
    ];
    // The mock answers other requests while the site is being built.
    expect((await h.v1('/courses')).status).toBe(200);
    release();
    const [index, v1, css] = await Promise.all(answers);
    expect([index?.status, v1?.status, css?.status]).toEqual([200, 200, 200]);
    expect(await index?.text()).toContain('data-lmskit-when="live">');
    expect(css?.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${h.base}/docs/index.html`)).status).toBe(200);
    expect(builds).toBe(1);
  });

  it('serves a reference page with the address it was requested at, marked live for Try it', async () => {
    h = await startHarness('demo', { requestsPerMinute: 0 }, async () => site());
    const port = new URL(h.base).port;
    const page = await (await fetch(`${h.base}/docs/v1.html`)).text();
    expect(page).toContain(`<meta name="lmskit-mock" content="live" data-origin="http://127.0.0.1:${port}">`);
    expect(page).toContain(`curl http://127.0.0.1:${port}/openapi/v1/courses`);
    expect(page).toContain(`url:'http://127.0.0.1:${port}/openapi/v1'`);
    expect(page).not.toContain('4010');
    const other = await getWithHost(`${h.base}/docs/v1.html`, `localhost:${port}`);
    expect(other).toContain(`curl http://localhost:${port}/openapi/v1/courses`);
    // Pages without the mark are served as built: the guide speaks of the default port.
    expect(await (await fetch(`${h.base}/docs/mock.html`)).text()).toBe(GUIDE);
  });

  it('serves the home page with the port it is served on: its examples and links, and which mock serves it', async () => {
    h = await startHarness('demo', { requestsPerMinute: 0 }, async () => site());
    const port = new URL(h.base).port;
    const home = await (await fetch(`${h.base}/docs/`)).text();
    expect(home).toContain(`curl -H 'X-API-KEY: k' http://127.0.0.1:${port}/openapi/v1/courses`);
    expect(home).toContain(`<a href="http://127.0.0.1:${port}/console/">`);
    expect(home).toContain(
      `<p data-lmskit-when="live">served by the mock at <code>http://127.0.0.1:${port}</code>`,
    );
    // The sentence for the built site, on how to name another port, is hidden.
    expect(home).toContain('<p data-lmskit-when="static" hidden>');
    expect(home).not.toContain('127.0.0.1:4010');
    const other = await getWithHost(`${h.base}/docs/index.html`, `localhost:${port}`);
    expect(other).toContain(`http://localhost:${port}/openapi/v1/courses`);
  });

  it('serves the pictures the written pages show (docs/screenshots/ carried into the site)', async () => {
    h = await startHarness('demo', { requestsPerMinute: 0 }, async () => site());
    const png = await fetch(`${h.base}/docs/screenshots/console-tenant.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer())]).toEqual([137, 80, 78, 71, 1]);
  });

  it('refuses a Host header that is no host (docs/mock.md, Host names) without repeating it, and serves binary files as they are', async () => {
    h = await startHarness('demo', { requestsPerMinute: 0 }, async () => site());
    const raw = await getWithHost(`${h.base}/docs/v1.html`, 'evil"><script>x</script>');
    expect(raw).not.toContain('<script>x</script>');
    expect(JSON.parse(raw)).toEqual({
      error: expect.stringMatching(/not a host name/),
      code: 'HOST_NOT_ALLOWED',
    });
    const png = await fetch(`${h.base}/docs/assets/logo.png`);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer())]).toEqual([137, 80, 78, 71]);
  });

  it('redirects /docs to /docs/, answers 404 for an unknown page and 405 for a write', async () => {
    h = await startHarness('demo', { requestsPerMinute: 0 }, async () => site());
    const redirect = await fetch(`${h.base}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/docs/');
    expect((await fetch(`${h.base}/docs/nope.html`)).status).toBe(404);
    expect((await fetch(`${h.base}/docs/%E0%A4%A.html`)).status).toBe(404);
    const post = await fetch(`${h.base}/docs/v1.html`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('says so when the site cannot be built, and tries again on the next request', async () => {
    let attempts = 0;
    h = await startHarness('demo', { requestsPerMinute: 0 }, async () => {
      attempts++;
      if (attempts === 1) throw new Error('redocly build-docs v1 failed: <boom>');
      return site();
    });
    const failed = await fetch(`${h.base}/docs/`);
    expect(failed.status).toBe(503);
    const text = await failed.text();
    expect(text).toContain('redocly build-docs v1 failed');
    expect(text).not.toContain('<boom>');
    expect((await fetch(`${h.base}/docs/`)).status).toBe(200);
    expect(attempts).toBe(2);
  });
});
