// The contract router's answer leaves once (contract.ts, `answer`): the handler's value is checked,
// kept by the GET cache as the string it is sent as, and sent; a departing answer is reported and
// never kept; an error thrown while the answer is made is answered as a value and checked the same.
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnswerObject, contractRouter } from './contract.ts';

const spec = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/thing': {
      get: {
        operationId: 'getThing',
        responses: {
          '200': {
            description: 'a thing',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
              },
            },
          },
          '404': {
            description: 'no thing',
            'x-error-codes': ['NOT_FOUND'],
            content: { 'application/json': { schema: { type: 'object', required: ['code'] } } },
          },
        },
      },
    },
  },
};

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A mock of one operation whose handler answers `made()`; each GET is asked `times` times. */
async function ask(made: () => AnswerObject, times: number, answerError?: () => AnswerObject) {
  let calls = 0;
  const reports: string[][] = [];
  const app = express().use(
    contractRouter({
      spec,
      handlers: {
        getThing: () => {
          calls++;
          return made();
        },
      },
      invalid: () => undefined,
      cacheBy: { epoch: () => 'e', caller: () => 'c' },
      answerError,
      onResponseMismatch: (res, _status, errors) => {
        reports.push(errors);
        res.status(500).json({ code: 'CONTRACT_VIOLATION' });
      },
    }),
  );
  const server = app.listen(0);
  servers.push(server);
  const port = (server.address() as { port: number }).port;
  const answers: { status: number; type: string | null; body: string }[] = [];
  for (let i = 0; i < times; i++) {
    const r = await fetch(`http://127.0.0.1:${port}/thing`);
    answers.push({ status: r.status, type: r.headers.get('content-type'), body: await r.text() });
  }
  return { calls, reports, answers };
}

describe('the answer of the contract router', () => {
  it('is kept the second time it is asked for, and served again as the same bytes and type', async () => {
    const { calls, answers } = await ask(() => ({ status: 200, body: { n: 1 } }), 3);
    expect(calls).toBe(2);
    for (const a of answers)
      expect(a).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: '{"n":1}' });
  });

  it('is reported instead of sent when it departs from the contract, and never kept', async () => {
    const { calls, reports, answers } = await ask(() => ({ status: 200, body: { n: 'x' } }), 3);
    expect(calls).toBe(3);
    expect(reports).toEqual([['/n: must be integer'], ['/n: must be integer'], ['/n: must be integer']]);
    expect(answers.map((a) => a.status)).toEqual([500, 500, 500]);
  });

  it('is, for an error thrown while it is made, the answer `answerError` gives, checked as well', async () => {
    const thrown = () => {
      throw new Error('gone');
    };
    const good = await ask(thrown, 1, () => ({ status: 404, body: { code: 'NOT_FOUND' } }));
    expect(good.answers).toEqual([
      { status: 404, type: 'application/json; charset=utf-8', body: '{"code":"NOT_FOUND"}' },
    ]);
    const bad = await ask(thrown, 1, () => ({ status: 404, body: { code: 'GONE' } }));
    expect(bad.reports[0]?.[0]).toMatch(/code GONE is not documented for status 404/);
    expect(bad.answers[0]?.status).toBe(500);
  });
});
