// The headless Chromium every browser test drives, picked so that a fresh clone needs no system
// browser: `CHROMIUM_PATH` when set, else Debian's `/usr/bin/chromium`, else the Chromium binary that
// the npm package `@sparticuz/chromium` carries (so `npm install` alone is enough).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type LaunchOptions, type Page } from 'playwright-core';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** A browser for tests: no sandbox (containers, root), no GPU, no traffic of its own. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Flags of `@sparticuz/chromium`'s `args` that suit a serverless function but not a test:
 * `--single-process` makes the browser exit when a page's context closes, and the other two loosen
 * the web security a reader's browser applies to the pages under test.
 */
const UNWANTED = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content']);

/** Where the packaged binary is unpacked once per version; `npm ci` starts it afresh. */
const CACHE = fileURLToPath(new URL('../node_modules/.cache/lmskit-chromium/', import.meta.url));

let launchOptions: Promise<LaunchOptions> | undefined;

/** The executable and arguments of the browser to use, decided once per process. */
export function browserLaunchOptions(): Promise<LaunchOptions> {
  launchOptions ??= pick();
  return launchOptions;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch(await browserLaunchOptions());
}

async function pick(): Promise<LaunchOptions> {
  // A path given by the user wins even when it is wrong: Playwright then says it does not exist.
  const given = process.env.CHROMIUM_PATH || (existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined);
  if (given) return { executablePath: given, args: FLAGS };
  const { default: packaged } = await import('@sparticuz/chromium');
  const args = packaged.args.filter((a) => !UNWANTED.has(a));
  return { executablePath: await unpack(packaged), args: [...new Set([...args, ...FLAGS])] };
}

/**
 * `executablePath()` unpacks the binary (and its fonts and SwiftShader) into the temporary directory
 * and trusts whatever `chromium` it finds there. Pointing it at a fresh directory that is renamed
 * into place only when complete keeps a run from picking up a half-written binary of a concurrent
 * worker, or another version's.
 */
async function unpack(packaged: { executablePath(input?: string): Promise<string> }): Promise<string> {
  const home = join(CACHE, packageVersion());
  const executable = join(home, 'chromium');
  if (existsSync(executable)) return executable;
  mkdirSync(CACHE, { recursive: true });
  const scratch = mkdtempSync(`${home}.partial-`);
  // The package reads os.tmpdir() synchronously when the call starts, before its first await.
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  let unpacked: Promise<string>;
  try {
    unpacked = packaged.executablePath();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  if (dirname(await unpacked) !== scratch) throw new Error(`@sparticuz/chromium unpacked outside ${scratch}`);
  try {
    renameSync(scratch, home);
  } catch (error) {
    // Another worker finished first: use its copy.
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(executable)) throw error;
  }
  return executable;
}

function packageVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    const pkg = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    if (pkg.name === '@sparticuz/chromium') return pkg.version;
  }
  throw new Error(`no package.json of @sparticuz/chromium above ${entry}`);
}

/**
 * Holds back the answer to the page's requests for `url`, for a test of what the page shows while an
 * answer is late and after it comes: `requested` resolves once the page asked; `deliver()` lets the
 * answer through, waits until the page has it and stops holding. A settled page is then checked
 * after `settle()`, time for the page to have read and rendered that answer, had it taken it.
 */
export async function holdBack(page: Page, url: RegExp) {
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return {
    requested,
    async deliver() {
      const answered = page.waitForResponse(url);
      release();
      await answered;
      await page.unroute(url);
    },
    settle: () => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200))),
  };
}
