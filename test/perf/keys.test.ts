// Regression guards for MCP key authentication that count work instead of timing it: a presented key
// is found by its digest (one lookup per tenant), never by going through every stored key of every
// tenant (seed 000, Authentication 1; why that stays timing-safe: mock/domain/mcp-keys.ts).
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../mock/domain/clock.ts';
import { generateKey } from '../../mock/domain/mcp-keys.ts';
import { Platform } from '../../mock/domain/platform.ts';
import { authenticate, isFailure } from '../../mock/http/v2/pipeline/authenticate.ts';
import { demoMcpKey, START } from '../../mock/seed/demo.ts';
import { loadSeed } from '../../mock/seed/index.ts';

/**
 * A Map that counts each entry it hands out, however it is read: `get`, `has`, `for…of`, `values()`,
 * `entries()`, `keys()`, `forEach`. Spies on a few methods would miss a `for…of`, which reads through
 * `Symbol.iterator`; this counts the work whatever the path.
 */
class CountingMap<K, V> extends Map<K, V> {
  reads = 0;
  override get(key: K) {
    this.reads++;
    return super.get(key);
  }
  override has(key: K) {
    this.reads++;
    return super.has(key);
  }
  override *[Symbol.iterator](): MapIterator<[K, V]> {
    for (const entry of super.entries()) {
      this.reads++;
      yield entry;
    }
  }
  override entries() {
    return this[Symbol.iterator]();
  }
  override *keys(): MapIterator<K> {
    for (const [key] of this) yield key;
  }
  override *values(): MapIterator<V> {
    for (const [, value] of this) yield value;
  }
  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void) {
    for (const [key, value] of this) fn(value, key, this);
  }
}

/** Replaces a tenant's map by a counting copy of it. */
function counted<K, V>(owner: object, name: string): CountingMap<K, V> {
  const map = new CountingMap<K, V>((owner as Record<string, Map<K, V>>)[name]);
  map.reads = 0;
  Object.defineProperty(owner, name, { value: map });
  return map;
}

/** The demo platform with `extra` more keys for its first user. */
function platformWithKeys(extra: number) {
  const platform = new Platform(new VirtualClock({ start: START, frozen: true }), loadSeed);
  platform.load(loadSeed('demo'));
  const tenant = platform.tenants.values().next().value;
  if (!tenant) throw new Error('the demo seed has a tenant');
  const userId = tenant.users.keys().next().value as number;
  for (let i = 0; i < extra; i++) {
    const { hash, prefix } = generateKey();
    tenant.addMcpKey({
      id: `bulk-${i}`,
      userId,
      prefix,
      hash,
      scopes: ['read'],
      createdAt: START,
      lastUsedAt: null,
      revokedAt: null,
    });
  }
  return platform;
}

describe('MCP keys are looked up by digest (seed 000, Authentication 1)', () => {
  it('finds a key among 5 000 without iterating any tenant’s keys', () => {
    const platform = platformWithKeys(5_000);
    // Both maps that hold keys: by digest (the lookup) and by id (a scan would read this one too).
    const maps = [...platform.tenants.values()].flatMap((t) => [
      counted(t, 'keysByDigest'),
      counted(t, 'mcpKeys'),
    ]);
    const caller = authenticate(platform, demoMcpKey('read'));
    expect(isFailure(caller)).toBe(false);
    const unknown = authenticate(platform, `lmcp_${'A'.repeat(43)}`);
    expect(unknown).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    // At most one entry read per request in each tenant: two requests here, among 5 000 keys.
    for (const map of maps) expect(map.reads).toBeLessThanOrEqual(2);
  });

  it('a key added after start, and revoked, is found by the same lookup', () => {
    const platform = platformWithKeys(0);
    const tenant = platform.tenants.values().next().value;
    if (!tenant) throw new Error('the demo seed has a tenant');
    const userId = [...tenant.users.values()].find((u) => u.role === 'admin')?.id as number;
    const { key, hash, prefix } = generateKey();
    tenant.addMcpKey({
      id: 'late',
      userId,
      prefix,
      hash,
      scopes: ['read'],
      createdAt: START,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(isFailure(authenticate(platform, key))).toBe(false);
    (tenant.mcpKeys.get('late') as { revokedAt: number | null }).revokedAt = START;
    expect(authenticate(platform, key)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    // A key differing only in its last character is unknown, not "close".
    const near = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    expect(authenticate(platform, near)).toMatchObject({ status: 401, message: 'Invalid MCP key.' });
  });
});
