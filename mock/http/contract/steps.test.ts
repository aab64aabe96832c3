// The steps of the contract chain (../contract.ts), each alone, over a tiny document: parameters are
// coerced to their schema's type, every invalid input is named (seed 000, Errors: 400
// VALIDATION_ERROR), a GET answer is kept and served again (docs/architecture.md, "A request's path",
// step 6), and an answer the contract does not document is caught (docs/adr-0004-typed-handlers-and-error-catalogue.md).
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { SpecSchemas } from '../../../lib/openapi-schemas.ts';
import { loadSpecs } from '../../specs.ts';
import { AnswerCache } from '../answer-cache.ts';
import { answerFromCache, keepAnswer } from './cache.ts';
import { coerce, coerceParameters } from './coerce.ts';
import { compileOperation } from './compile.ts';
import { schemas } from './fixture.test-spec.ts';
import { inputProblems } from './validate-input.ts';
import { checkAnswer } from './validate-output.ts';

const op = () => compileOperation(schemas(), '/users/{userId}', 'post');

/** A request as Express hands it on: string parameters, a parsed body, headers. */
function request(params: Record<string, string>, query: Record<string, string>, body?: unknown) {
  const headers: Record<string, string> =
    body === undefined ? {} : { 'content-length': '10', 'content-type': 'application/json' };
  return {
    params,
    query,
    body,
    get: (name: string) => headers[name.toLowerCase()],
    is: (types: string[]) =>
      types.includes(headers['content-type'] ?? '') ? headers['content-type'] : false,
  } as unknown as Request;
}

/** A response that records what is sent. */
function response() {
  const sent: { status: number; type?: string; body?: unknown; length?: string }[] = [];
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 200,
    locals: {},
    req: { method: 'GET', headers: {} },
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    set(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    get: (name: string) => headers[name.toLowerCase()],
    send(body?: unknown) {
      sent.push({ status: res.statusCode, type: headers['content-type'], body });
      return res;
    },
    // A kept answer is written as `send` would write it, without `send` (contract/cache.ts).
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    end(body?: unknown) {
      sent.push({
        status: res.statusCode,
        type: headers['content-type'],
        body,
        length: headers['content-length'],
      });
    },
  };
  return { res: res as unknown as Response & { send: (b?: unknown) => Response }, sent };
}

describe('compileOperation', () => {
  it("holds the path item's and the operation's parameters in order, and the body's validator, required flag and media types", () => {
    const compiled = op();
    expect(compiled.parameters.map((p) => p.param.name)).toEqual(['userId', 'limit', 'dry', 'q']);
    expect(compiled.body.required).toBe(true);
    expect(compiled.body.mediaTypes).toEqual(['application/json']);
    expect(compiled.body.validate?.({ email: 'a@x.example' })).toBe(true);
    expect(compiled.body.validate?.({})).toBe(false);
  });
});

describe('coerce', () => {
  it('turns numeric and boolean text into what the schema names, and leaves other text as sent', () => {
    expect(coerce('42', { type: 'integer' })).toBe(42);
    expect(coerce('true', { type: 'boolean' })).toBe(true);
    expect(coerce('4x', { type: 'integer' })).toBe('4x');
    expect(coerce('42', { type: 'string' })).toBe('42');
  });

  it("gives an absent optional parameter its schema's default and names every parameter not sent", () => {
    const { input, unsent } = coerceParameters(request({ userId: '7' }, { dry: 'false' }), op().parameters);
    expect(input.params).toEqual({ userId: 7 });
    expect(input.query).toEqual({ limit: 20, dry: false });
    expect([...unsent].map((p) => p.param.name)).toEqual(['limit', 'q']);
  });
});

describe('inputProblems', () => {
  const problems = (req: Request) => {
    const compiled = op();
    const { input, unsent } = coerceParameters(req, compiled.parameters);
    return inputProblems(req, compiled, input, unsent);
  };

  it('finds nothing wrong in valid input', () => {
    expect(problems(request({ userId: '7' }, { q: 'x', limit: '50' }, { email: 'a@x.example' }))).toEqual([]);
  });

  it('names every invalid value in the document order: path, query, a missing required one, then the body (seed 000, Errors: 400 VALIDATION_ERROR)', () => {
    const found = problems(request({ userId: '0' }, { limit: '51' }, { email: 3 }));
    expect(found.map((p) => [p.in, p.name, p.errors[0]?.keyword])).toEqual([
      ['path', 'userId', 'minimum'],
      ['query', 'limit', 'maximum'],
      ['query', 'q', 'required'],
      ['body', undefined, 'type'],
    ]);
  });

  it('calls an empty body a missing one when the operation requires a body', () => {
    const found = problems(request({ userId: '7' }, { q: 'x' }));
    expect(found).toEqual([{ in: 'body', errors: [expect.objectContaining({ keyword: 'required' })] }]);
  });
});

describe('answerFromCache and keepAnswer', () => {
  const type = 'application/json; charset=utf-8';
  it('keeps a 200 answer asked for a second time and serves it again under the same key', () => {
    const cache = new AnswerCache();
    // Asked for once: made, not kept.
    expect(answerFromCache(response().res, cache, 'k')).toBe('make');
    expect(cache.size.entries).toBe(0);
    expect(answerFromCache(response().res, cache, 'k')).toBe('keep');
    expect(keepAnswer(cache, 'k', type, '{"id":1}')).toBe('{"id":1}');
    const again = response();
    expect(answerFromCache(again.res, cache, 'k')).toBe('served');
    expect(again.sent).toEqual([{ status: 200, type, body: '{"id":1}', length: '8' }]);

    // An answer of 1 000 characters or more is kept, and sent, as the bytes Express would have made of it.
    const large = `{"name":"${'é'.repeat(1000)}"}`;
    cache.admits('big');
    expect(answerFromCache(response().res, cache, 'big')).toBe('keep');
    expect(keepAnswer(cache, 'big', type, large)).toEqual(Buffer.from(large));
    const bigAgain = response();
    expect(answerFromCache(bigAgain.res, cache, 'big')).toBe('served');
    expect(bigAgain.sent).toEqual([
      { status: 200, type, body: Buffer.from(large), length: String(Buffer.byteLength(large)) },
    ]);
  });
});

describe('checkAnswer', () => {
  const compiled = op();

  it('accepts an answer its operation documents', () => {
    expect(checkAnswer(schemas(), compiled, 200, { id: 1 })).toEqual([]);
    expect(checkAnswer(schemas(), compiled, 404, { code: 'NOT_FOUND' })).toEqual([]);
  });

  it('names an undocumented status, a body against the schema, a status without a JSON body and an uncatalogued code (docs/adr-0004)', () => {
    expect(checkAnswer(schemas(), compiled, 500, {})).toEqual(['status 500 is not documented']);
    expect(checkAnswer(schemas(), compiled, 200, { id: '1' })).toEqual(['/id: must be integer']);
    expect(checkAnswer(schemas(), compiled, 204, {})).toEqual(['status 204 documents no JSON body']);
    expect(checkAnswer(schemas(), compiled, 404, { code: 'GONE' })).toEqual([
      'code GONE is not documented for status 404 (x-error-codes: NOT_FOUND)',
    ]);
  });
});

describe('compileOperation over the three contracts', () => {
  it('compiles every operation of v1, v2 and admin (they are compiled on first use, so a schema ajv refuses must fail here, not on a request)', () => {
    const specs = loadSpecs();
    let compiled = 0;
    for (const api of ['v1', 'v2', 'admin'] as const) {
      const all = new SpecSchemas(specs[api]);
      for (const [path, item] of Object.entries(specs[api].paths as Record<string, object>))
        for (const method of ['get', 'put', 'post', 'delete', 'patch'])
          if (method in item) {
            const op = compileOperation(all, path, method);
            expect(op.operation.operationId).toBeTypeOf('string');
            compiled++;
          }
    }
    expect(compiled).toBeGreaterThan(60);
  });
});
