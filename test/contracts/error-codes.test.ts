// The error-code catalogue (docs/adr-0004-typed-handlers-and-error-catalogue.md): the `x-error-codes`
// of openapi/v2 and openapi/admin are the only codes. The mock cannot name another (the generated
// `ErrorCode` union types the domain and the pipeline, so tsc refuses it); its answers carry only the
// codes their operation documents for the status (checked here on the contract router, and on every
// answer of the HTTP tests); the tool server's sentences and docs/mock.md name the codes with the
// statuses the contracts give them; and every code is asserted by at least one test.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { errorCodes as adminCodes } from '../../generated/admin.ts';
import { errorCodes as v2Codes } from '../../generated/v2.ts';
import { ROOT } from '../../lib/paths.ts';
import { contractRouter } from '../../mock/http/contract.ts';

const catalogue = new Map<string, number>([...Object.entries(adminCodes), ...Object.entries(v2Codes)]);
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

describe('the error-code catalogue (docs/adr-0004)', () => {
  it('gives a code the same status in v2 and admin, so the mock answers one code with one status', () => {
    for (const [code, status] of Object.entries(adminCodes))
      if (code in v2Codes) expect(v2Codes[code as keyof typeof v2Codes], code).toBe(status);
  });

  it('refuses, on the contract router, an error answer whose code its response does not document', async () => {
    const spec = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/thing': {
          get: {
            operationId: 'getThing',
            responses: {
              '404': {
                description: 'no thing',
                'x-error-codes': ['NOT_FOUND'],
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      required: ['error', 'code'],
                      properties: { error: { type: 'string' }, code: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    };
    const answer = async (code: string) => {
      const mismatches: string[][] = [];
      const app = express().use(
        contractRouter({
          spec,
          handlers: { getThing: () => ({ status: 404, body: { error: 'gone', code } }) },
          invalid: () => undefined,
          onResponseMismatch: (res, _status, errors) => {
            mismatches.push(errors);
            res.status(500).end();
          },
        }),
      );
      const server = app.listen(0);
      const port = (server.address() as { port: number }).port;
      const status = (await fetch(`http://127.0.0.1:${port}/thing`)).status;
      server.close();
      return { status, mismatches };
    };
    expect(await answer('NOT_FOUND')).toEqual({ status: 404, mismatches: [] });
    const wrong = await answer('THING_GONE');
    expect(wrong.status).toBe(500);
    expect(wrong.mismatches[0]?.[0]).toMatch(/code THING_GONE is not documented for status 404/);
  });

  it('agrees with the MCP tool server: each code its sentences name has the status they are under (mcp-server/errors.ts)', () => {
    const text = read('mcp-server/errors.ts');
    const own = read('mcp-server/backend.ts');
    let status: number | undefined;
    const named: [string, number | undefined][] = [];
    for (const line of text.split('\n')) {
      const under = /case (\d{3}):/.exec(line);
      if (under) status = Number(under[1]);
      for (const m of line.matchAll(/(?:case |code === )'([A-Z][A-Z0-9_]+)'/g))
        named.push([m[1] as string, status]);
    }
    expect(named.length).toBeGreaterThan(5);
    for (const [code, under] of named) {
      // The tool server's own code (the backend could not be reached) is made in backend.ts.
      if (own.includes(`'${code}'`)) continue;
      expect(catalogue.get(code), `${code} in mcp-server/errors.ts`).toBe(under);
    }
  });

  it('agrees with docs/mock.md: each "status `CODE`" there is a catalogued code with that status', () => {
    const pairs = [...read('docs/mock.md').matchAll(/\b(\d{3}) `([A-Z][A-Z0-9_]+)`/g)];
    expect(pairs.length).toBeGreaterThan(5);
    for (const [, status, code] of pairs)
      expect(catalogue.get(code as string), `${status} ${code}`).toBe(Number(status));
  });

  it('has every documented code asserted by at least one test', () => {
    const tests = [
      ...filesUnder('test', (n) => n.endsWith('.test.ts')),
      ...filesUnder('mock', (n) => n.endsWith('.test.ts')),
    ].filter((f) => !f.endsWith('error-codes.test.ts'));
    const text = tests.map(read).join('\n');
    const unreached = [...catalogue.keys()].filter((code) => !new RegExp(`['"\`]${code}['"\`]`).test(text));
    expect(unreached).toEqual([]);
  });
});
