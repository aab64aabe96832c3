#!/usr/bin/env -S node --max-semi-space-size=4 --initial-old-space-size=32 --v8-pool-size=2
// The `lmskit` command: one entry point whose sub-commands run the kit's parts.
// The first line sizes V8's heap and threads, which can only be done as the process starts;
// `npm start` and the bench pass the same flags (a test holds them together). Measured in
// bench/RESULTS.md:
// - the young generation is bounded at 4 MB a half instead of 16: under a steady mixed load the
//   mock's memory stayed within 1.5 times its idle size with it, and 1.6 times without, for about
//   4 % more CPU a request (Memory under mixed load);
// - no full collection runs while the old generation is under 32 MB: the demo seed holds about
//   12 MB live, and growing that by half (mock/main.ts) meant a full collection every 75 ms under
//   load, 14 % of a cached read's CPU. The 100 000-user seed's heap collects above 32 MB anyway;
// - V8 runs its background work (concurrent marking, compiling) on 2 threads instead of 4: each
//   thread has its own stack and often its own malloc arena, and the mock's memory after a steady
//   mixed load was 4-6 MB lower with 2, at the same CPU a request.
// TypeScript sources are loaded through tsx in this same process (no build step, and signals
// reach the command itself rather than a wrapper). The installed package ships the commands an
// integrator runs (mock, mcp, conformance); docs, generate, lint and export work on the kit's own
// sources and exist in a clone only.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundled } from './bundle.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const commands = {
  conformance: {
    script: 'conformance/main.ts',
    help: 'check a deployment against the contracts (--help for options)',
  },
  docs: { script: 'scripts/build-docs.ts', help: 'build the static docs site into docs/site/' },
  export: {
    script: 'scripts/export.ts',
    help: 'export a contract for another tool: --for dredd (--help for options)',
  },
  generate: { script: 'scripts/generate.ts', help: 'regenerate types and bundled specs into generated/' },
  lint: { script: 'scripts/lint.ts', help: 'lint the contracts and the code' },
  mcp: {
    script: 'mcp-server/main.ts',
    help: 'run the MCP tool server, stdio or --http (--help for options)',
  },
  mock: {
    script: 'mock/main.ts',
    help: 'run the stateful mock of v1, v2 and the admin API (--help for options)',
  },
};

const here = Object.fromEntries(Object.entries(commands).filter(([, c]) => existsSync(join(root, c.script))));
const [name, ...args] = process.argv.slice(2);
if (name && commands[name] && !here[name]) {
  console.error(
    `lmskit ${name} works in a clone of the kit, on its own sources; this installation has: ${Object.keys(here).join(', ')}`,
  );
  process.exit(2);
}
const command = name ? here[name] : undefined;
if (!command) {
  const list = Object.entries(here)
    .map(([n, c]) => `  ${n.padEnd(12)} ${c.help}`)
    .join('\n');
  const asked = !name || ['help', '--help', '-h'].includes(name);
  (asked ? console.log : console.error)(`usage: lmskit <command> [options]\n\ncommands:\n${list}`);
  process.exit(asked ? 0 : 2);
}
const script = join(root, command.script);
process.argv = [process.argv[0], script, ...args];
// `npx lmskit …` and `npm start` make this process a child of npm's, which does not pass on a signal
// it is sent: a user who stops the process they started (its PID, a supervisor's kill) left this one
// serving and holding the port. Started so (npm sets npm_command to exec or start), this process stops
// as a SIGTERM stops it once the process that started it is gone. Elsewhere (`nohup lmskit mock &`, a
// service manager, a script of the user's own) it outlives its parent, as a server should.
if (['exec', 'start'].includes(process.env.npm_command ?? '')) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  watch.unref();
}
/** Runs the command from its bundle; false where the bundle is gone (another start replaced it). */
async function fromBundle(url) {
  try {
    await import(url);
    return true;
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && !existsSync(fileURLToPath(url))) return false;
    throw error;
  }
}
const bundle = process.env.LMSKIT_TSX ? null : await bundled(root, name, script);
if (!bundle || !(await fromBundle(bundle))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(script).href);
}
