// The audit log as get_audit_log reads it (seed 000, Read tools: get_audit_log): a window of ISO
// date-times or days, the author named, newest first, paged; a window that is not a date refused.
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../specs.ts';
import { AUDIT_RETENTION, audit, readAuditLog, SITE_KEY } from './audit.ts';
import { DomainError } from './errors.ts';
import { TenantState } from './tenant-state.ts';
import { createUser } from './users.ts';

const DAY_START = Date.parse('2026-01-01T00:00:00Z') / 1000;

function setup() {
  const t = TenantState.empty('t', 'T', 'key');
  const ann = createUser(
    t,
    SITE_KEY,
    { id: 'ann', name: 'Ann', email: 'ann@x.example', password: 'password1', roleAlias: 'learner' },
    DAY_START,
  );
  t.audit.length = 0;
  audit(t, { userId: ann.id }, DAY_START + 10, 'course.clone', { type: 'course', id: '1' });
  audit(t, SITE_KEY, DAY_START + 20, 'user.ban', { type: 'user', id: 'ann' });
  audit(t, { userId: ann.id }, DAY_START + 86_400 + 5, 'course.publish', { type: 'course', id: '1' });
  return { t, ann };
}

const page = { limit: 50, offset: 0 };

describe('readAuditLog', () => {
  it('names the author as {id, name}, null for the site API key, newest first (seed 000, get_audit_log: audit entries)', () => {
    const { t, ann } = setup();
    const { entries, total } = readAuditLog(t, page);
    expect(total).toBe(3);
    expect(entries.map((e) => [e.action, e.author])).toEqual([
      ['course.publish', { id: ann.id, name: 'Ann' }],
      ['user.ban', null],
      ['course.clone', { id: ann.id, name: 'Ann' }],
    ]);
    expect(entries.every((e) => e.authorId === undefined)).toBe(true);
  });

  it('reads a YYYY-MM-DD window end as the end of that day (seed 000, get_audit_log: ISO date or YYYY-MM-DD)', () => {
    const { t } = setup();
    const { entries } = readAuditLog(t, { ...page, from: '2026-01-01', to: '2026-01-01' });
    expect(entries.map((e) => e.action)).toEqual(['user.ban', 'course.clone']);
    const later = readAuditLog(t, { ...page, from: '2026-01-01T00:00:15Z' });
    expect(later.entries.map((e) => e.action)).toEqual(['course.publish', 'user.ban']);
  });

  it('filters by the acting user and pages (seed 000, get_audit_log: acting user id, limit, offset)', () => {
    const { t, ann } = setup();
    const { entries, total } = readAuditLog(t, { authorId: ann.id, limit: 1, offset: 1 });
    expect(total).toBe(2);
    expect(entries.map((e) => e.action)).toEqual(['course.clone']);
  });

  it.each([
    ['from', { from: 'yesterday' }],
    ['to', { to: '2026-13-45' }],
  ])(
    'refuses a window %s that is not a date as a validation error (seed 000, Errors: 400 VALIDATION_ERROR)',
    (_, window) => {
      const { t } = setup();
      let error: unknown;
      try {
        readAuditLog(t, { ...page, ...window });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ kind: 'validation', code: 'VALIDATION_ERROR' });
    },
  );
});

describe('the audit window is a day the calendar has (openapi/v2 fields[createdAt][from|to]: "2026-02-30 is refused with 400")', () => {
  it.each(['2026-02-30', '2026-02-29', '2026-04-31T10:00:00Z', '2026-02-30T00:00:00+01:00'])(
    'refuses %s, which Date.parse would roll over into the next month',
    (day) => {
      const { t } = setup();
      for (const window of [{ from: day }, { to: day }])
        expect(() => readAuditLog(t, { ...page, ...window })).toThrow(/a day the calendar has/);
    },
  );

  it('reads a leap day of a leap year', () => {
    const { t } = setup();
    expect(readAuditLog(t, { ...page, from: '2024-02-29', to: '2024-02-29T23:00:00Z' }).total).toBe(0);
  });
});

describe('audit retention', () => {
  it('is the retention the contract states (openapi/v2 /audit: x-assumed-retention)', () => {
    const paths = loadSpecs().v2.paths as Record<string, { get?: Record<string, unknown> }>;
    const operation = paths['/audit']?.get;
    expect(operation?.['x-assumed-retention']).toBe(AUDIT_RETENTION);
  });

  it('keeps at most AUDIT_RETENTION entries, dropping the oldest, so a long run of writes cannot grow it for good (docs/adr-0002: the audit log)', () => {
    const { t } = setup();
    for (let i = 0; i < 3 * AUDIT_RETENTION; i++)
      audit(t, SITE_KEY, DAY_START + 100 + i, 'user.update', { type: 'user', id: `u${i}` });
    expect(t.audit.length).toBeLessThanOrEqual(AUDIT_RETENTION);
    expect(t.audit.length).toBeGreaterThan(AUDIT_RETENTION / 2);
    const { entries, total } = readAuditLog(t, { limit: 1, offset: 0 });
    expect(total).toBe(t.audit.length);
    expect(entries[0]?.target).toEqual({ type: 'user', id: `u${3 * AUDIT_RETENTION - 1}` });
    // Ids stay increasing and unique: the oldest kept follow on from what was dropped.
    const ids = t.audit.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(t.audit.at(-1)?.id).toBe((t.audit[0]?.id ?? 0) + t.audit.length - 1);
  });

  it('cuts a log read from an older state file, longer than the bound, down at its first write', () => {
    const { t } = setup();
    for (let i = 0; i < 3 * AUDIT_RETENTION; i++)
      t.audit.push({
        id: t.nextId('audit'),
        createdAt: DAY_START,
        authorId: null,
        action: 'user.update',
        target: { type: 'user', id: `u${i}` },
        details: {},
      });
    audit(t, SITE_KEY, DAY_START + 1, 'user.update', { type: 'user', id: 'last' });
    expect(t.audit.length).toBeLessThanOrEqual(AUDIT_RETENTION);
    expect(t.audit.at(-1)?.target).toEqual({ type: 'user', id: 'last' });
  });
});
