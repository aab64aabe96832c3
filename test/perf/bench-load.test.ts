// The bench's load generator (bench/load.ts, its worker in its own process) as the benchmark uses
// it: "every query new" must hold from one round to the next, or the answer cache serves the rounds
// and the ratio measures the cache instead of the search.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadGenerator } from '../../bench/load.ts';

describe('the bench load generator', () => {
  const asked: string[] = [];
  let server: Server;
  let port = 0;
  let load: LoadGenerator;

  beforeAll(async () => {
    // Slow answers keep a run to a few dozen requests, well inside the list.
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      setTimeout(() => res.end('{}'), 10);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    load = new LoadGenerator(null);
  });
  afterAll(async () => {
    load.stop();
    await new Promise((resolve) => server.close(resolve));
  });

  it('goes on through a list of paths from run to run: no path is asked twice before the list ends', async () => {
    const paths = Array.from({ length: 5_000 }, (_, i) => `/search?q=${i}`);
    const job = { url: `http://127.0.0.1:${port}/search`, method: 'GET' as const, headers: {}, paths };
    // Runs of 2 s: a busy machine may stall a few hundred milliseconds, and a run that sent nothing
    // proves nothing; at 10 ms an answer on 2 connections, 2 s stay well inside the list of 5 000.
    const first = await load.run({ ...job, connections: 2, seconds: 2 });
    const afterFirst = asked.length;
    const second = await load.run({ ...job, connections: 2, seconds: 2 });

    expect(first.requests).toBeGreaterThan(0);
    expect(second.requests).toBeGreaterThan(0);
    expect(asked.length).toBeGreaterThan(afterFirst);
    expect(new Set(asked).size).toBe(asked.length);
    const index = (url: string) => Number(url.split('=')[1]);
    const lastOfFirst = Math.max(...asked.slice(0, afterFirst).map(index));
    expect(Math.min(...asked.slice(afterFirst).map(index))).toBeGreaterThan(lastOfFirst);
  }, 120_000); // the worker process starts within it: 2 s quiet, 17 s beside busy processes; guards a hang
});
