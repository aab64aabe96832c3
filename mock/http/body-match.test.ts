// The matching rule of the journal's `body` filter and the faults' `match.body` (openapi/admin).
import { describe, expect, it } from 'vitest';
import { matchesJson } from './body-match.ts';

describe('a JSON pattern matches a value as toMatchObject does (openapi/admin, JournalBody)', () => {
  it('an object needs at least its properties, each matching, at any depth', () => {
    const body = { email: 'ines@example.com', name: 'Ines', profile: { city: 'Porto', zip: '4000' } };
    expect(matchesJson(body, { email: 'ines@example.com' })).toBe(true);
    expect(matchesJson(body, { profile: { city: 'Porto' } })).toBe(true);
    expect(matchesJson(body, {})).toBe(true);
    expect(matchesJson(body, { email: 'other@example.com' })).toBe(false);
    expect(matchesJson(body, { missing: null })).toBe(false);
    expect(matchesJson(body, { profile: { city: 'Lisbon' } })).toBe(false);
  });

  it('an array needs the same length, item by item (items that are objects matched as objects)', () => {
    expect(matchesJson({ courses: [1, 2] }, { courses: [1, 2] })).toBe(true);
    expect(matchesJson({ courses: [1, 2, 3] }, { courses: [1, 2] })).toBe(false);
    expect(matchesJson({ courses: [2, 1] }, { courses: [1, 2] })).toBe(false);
    expect(matchesJson([{ id: 1, x: true }], [{ id: 1 }])).toBe(true);
    expect(matchesJson({ courses: { 0: 1 } }, { courses: [1] })).toBe(false);
  });

  it('anything else only an equal value of the same type', () => {
    expect(matchesJson(1, 1)).toBe(true);
    expect(matchesJson('1', 1)).toBe(false);
    expect(matchesJson(null, null)).toBe(true);
    expect(matchesJson(undefined, null)).toBe(false);
    expect(matchesJson([], {})).toBe(false);
    expect(matchesJson(null, {})).toBe(false);
    expect(matchesJson(false, false)).toBe(true);
  });
});
