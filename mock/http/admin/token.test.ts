import { describe, expect, it } from 'vitest';
import { adminTokenProblem } from './token.ts';

describe('adminTokenProblem (docs/mock.md, Options: --admin-token)', () => {
  it.each([
    ['sixteen-chars-ok'],
    ['a'.repeat(1024)],
    ['0123456789abcdef0123456789abcdef'],
    ['!#$%&()*+,-./:;<=>?@[]^_`{|}~"\'\\'],
  ])('takes %s', (token) => {
    expect(adminTokenProblem(token)).toBeNull();
  });

  it.each([
    ['', /this one has 0$/],
    ['x', /this one has 1$/],
    ['abcdefghijklmno', /this one has 15$/],
    ['a'.repeat(1025), /this one has 1025$/],
    ['long enough token with spaces', /whitespace/],
    ['long-enough-token\twith-a-tab', /whitespace/],
    ['long-enough-token\nwith-a-newline', /whitespace/],
    ['long-enough-token-ünïcödé', /outside printable ASCII/],
    ['long-enough-token-\u0000-nul', /outside printable ASCII/],
  ])('refuses %j in one sentence', (token, why) => {
    const problem = adminTokenProblem(token) as string;
    expect(problem).toMatch(/^--admin-token takes 16 to 1024 printable ASCII characters without spaces/);
    expect(problem).toMatch(why);
    expect(problem).not.toContain('\n');
  });
});
