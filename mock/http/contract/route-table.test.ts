// The contract router's route table: a request finds its operation as Express would have found the
// route (docs/architecture.md, "A request through the mock", step 3).
import { describe, expect, it } from 'vitest';
import { RouteTable } from './route-table.ts';

function table() {
  const t = new RouteTable<string>();
  t.add('get', '/statistics/{scope}', 'statisticsOfScope');
  t.add('get', '/statistics/leaders', 'leaders');
  t.add('get', '/users/{userId}/assignments', 'assignmentsOfUser');
  t.add('post', '/courses/clone', 'cloneCourse');
  t.add('get', '/courses/{courseId}', 'getCourse');
  return t;
}

describe('RouteTable', () => {
  it('prefers a literal segment to a templated one, whatever the order the paths were added in', () => {
    expect(table().match('GET', '/statistics/leaders')?.value).toBe('leaders');
    expect(table().match('GET', '/statistics/courses')).toEqual({
      value: 'statisticsOfScope',
      params: { scope: 'courses' },
    });
  });

  it('matches by method: a path with another method only is no match (methods.ts answers 405)', () => {
    expect(table().match('POST', '/courses/clone')?.value).toBe('cloneCourse');
    expect(table().match('GET', '/courses/clone')).toEqual({
      value: 'getCourse',
      params: { courseId: 'clone' },
    });
    expect(table().match('DELETE', '/courses/1')).toBeUndefined();
  });

  it('answers HEAD with the GET operation, as Express does', () => {
    expect(table().match('HEAD', '/courses/7')?.value).toBe('getCourse');
  });

  it('ignores case and one trailing slash, and nothing else', () => {
    expect(table().match('GET', '/Users/lena/Assignments/')?.params).toEqual({ userId: 'lena' });
    expect(table().match('GET', '/users/lena/assignments/x')).toBeUndefined();
    expect(table().match('GET', '/users//assignments')).toBeUndefined();
  });

  it('decodes path parameters, and refuses bad percent-encoding with a 400 (the error middleware shapes it)', () => {
    expect(table().match('GET', '/users/l%C3%A9na/assignments')?.params).toEqual({ userId: 'léna' });
    expect(() => table().match('GET', '/users/%E0%A4%A/assignments')).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});
