// The scale seed's memory check (docs/mock.md, Options: --seed-scale): sizes past what the indexes or
// the memory can hold are refused in one sentence before anything is built, and the estimate it
// judges by is not below what a seed actually takes.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { TenantState } from '../domain/tenant-state.ts';
import {
  MAX_SCALE_ASSIGNMENTS,
  MAX_SCALE_USERS,
  parseScale,
  scaleBytes,
  scaleProblem,
  scaleTenant,
} from './scale.ts';

const GB = 2 ** 30;
const LIMITS = { heapBytes: 4 * GB, totalBytes: 16 * GB };
const problem = (spec: string, limits = LIMITS) => scaleProblem(spec, parseScale(spec), limits);

describe('scaleProblem', () => {
  it('takes the seeds the bench runs', () => {
    expect(problem('users=100000,courses=1000,assignments=500000')).toBeNull();
    expect(problem('users=1000000,courses=10000,assignments=5000000')).toBeNull();
  });

  it('refuses more users or courses than the indexes hold, and more assignments than 32-bit ids', () => {
    expect(problem(`users=${MAX_SCALE_USERS + 1},courses=1,assignments=1`)).toMatch(
      /cannot index more than 33554431 users or courses/,
    );
    expect(problem(`users=1000000,courses=10000,assignments=${MAX_SCALE_ASSIGNMENTS + 1}`)).toMatch(
      /cannot hold more than 2147483647 assignments/,
    );
  });

  it('refuses a seed whose records need more than three quarters of the heap limit, naming both sizes', () => {
    const sentence = problem('users=1000,courses=10000000,assignments=1000') as string;
    expect(sentence).toMatch(
      /^--seed-scale users=1000,courses=10000000,assignments=1000 does not fit in memory: its records need about 11\.\d GB of JavaScript heap, and V8 allows this process 4\.0 GB/,
    );
    expect(sentence).toMatch(/--max-old-space-size/);
    // A larger heap takes it.
    expect(
      problem('users=1000,courses=10000000,assignments=1000', { heapBytes: 16 * GB, totalBytes: 64 * GB }),
    ).toBeNull();
  });

  it('refuses a seed that needs more than three quarters of the memory the process can have', () => {
    expect(problem('users=1000000,courses=10000,assignments=300000000')).toMatch(
      /does not fit in memory: it needs about 13\.\d GB, and this machine has 16\.0 GB for this process/,
    );
  });
});

describe('scaleBytes', () => {
  it('is not below what a seed takes, measured between full collections', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Full collections until the memory stops falling: what an earlier test file in this worker left
    // (sockets' buffers, handles) can take more than one collection to be freed, and freed between
    // the two readings it would be counted against the seed.
    const settled = () => {
      let last = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 10; round++) {
        gc();
        const usage = process.memoryUsage();
        const now = usage.heapUsed + usage.arrayBuffers;
        if (last - now < 2 ** 20) return usage;
        last = now;
      }
      return process.memoryUsage();
    };
    const sizes = parseScale('users=200000,courses=2000,assignments=1000000');
    const before = settled();
    const tenant = new TenantState(scaleTenant(sizes));
    const after = settled();
    expect(tenant.users.size).toBe(200_000);
    const estimate = scaleBytes(sizes);
    const heap = after.heapUsed - before.heapUsed;
    const total = heap + after.arrayBuffers - before.arrayBuffers;
    expect(heap).toBeLessThanOrEqual(estimate.heap);
    expect(total).toBeLessThanOrEqual(estimate.total);
    // And not far above it either: the estimate without its fixed base is within twice the measure.
    expect(estimate.total - 64 * 2 ** 20).toBeLessThanOrEqual(2 * total);
  });
});
