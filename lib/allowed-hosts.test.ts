// The Host check the mock and the tool server share (lib/allowed-hosts.ts; docs/mock.md, Host names;
// docs/mcp.md, Security): which Host headers name a served host, and the middleware that refuses the
// others before anything else runs.
import express from 'express';
import { describe, expect, it } from 'vitest';
import { allowedHostsFor, hostCheck, hostRefusal, hostRefusalMessage } from './allowed-hosts.ts';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

describe('hostRefusal', () => {
  it('serves a listed name with or without a port, IPv6 in brackets', () => {
    for (const host of ['localhost', 'localhost:4010', '127.0.0.1:1', '[::1]:4010', 'LOCALHOST:80'])
      expect(hostRefusal(host, LOOPBACK), host).toBeNull();
  });

  it('refuses another name, naming it without its port', () => {
    expect(hostRefusal('evil.example:4010', LOOPBACK)).toEqual({
      kind: 'not-allowed',
      hostname: 'evil.example',
    });
    expect(hostRefusal('127.0.0.2', LOOPBACK)).toEqual({ kind: 'not-allowed', hostname: '127.0.0.2' });
  });

  it('refuses a missing Host, and one that is no authority — never reading a user or a path out of it', () => {
    expect(hostRefusal(undefined, LOOPBACK)).toEqual({ kind: 'missing' });
    expect(hostRefusal('', LOOPBACK)).toEqual({ kind: 'missing' });
    for (const host of [
      'evil@127.0.0.1',
      '127.0.0.1/evil',
      'evil.example\\@localhost',
      'local host',
      'localhost:99999',
      '[::1',
    ])
      expect(hostRefusal(host, LOOPBACK)?.kind, host).toBe('malformed');
  });

  it('keeps the sentences the MCP SDK gave, which the tool server still answers', () => {
    expect(hostRefusalMessage({ kind: 'missing' })).toBe('Missing Host header');
    expect(hostRefusalMessage({ kind: 'malformed', host: 'a b' })).toBe('Invalid Host header: a b');
    expect(hostRefusalMessage({ kind: 'not-allowed', hostname: 'evil.example' })).toBe(
      'Invalid Host: evil.example',
    );
  });
});

describe('allowedHostsFor', () => {
  it('is localhost’s names and the address listened on; listening everywhere names no more', () => {
    expect(allowedHostsFor('127.0.0.2')).toEqual([...LOOPBACK, '127.0.0.2']);
    expect(allowedHostsFor('::1')).toEqual(LOOPBACK);
    expect(allowedHostsFor('0.0.0.0')).toEqual(LOOPBACK);
    expect(allowedHostsFor('::', ['mock.example.test', 'fe80::1'])).toEqual([
      'mock.example.test',
      '[fe80::1]',
    ]);
  });

  it('throws for something that is no host name, for the command to report', () => {
    expect(() => allowedHostsFor('127.0.0.1', ['not a host'])).toThrow();
  });
});

describe('hostCheck', () => {
  it('passes a served Host on and answers any other through `refuse`, however many distinct ones come', async () => {
    const refused: string[] = [];
    const app = express()
      .use(
        hostCheck(LOOPBACK, (_req, res, refusal) => {
          refused.push(hostRefusalMessage(refusal));
          res.status(403).end();
        }),
      )
      .get('/', (_req, res) => res.send('ok'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    const { request } = await import('node:http');
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) =>
        request({ port, host: '127.0.0.1', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end(),
      );
    try {
      expect(await statusFor(`localhost:${port}`)).toBe(200);
      for (let n = 0; n < 100; n++) expect(await statusFor(`evil${n}.example`)).toBe(403);
      expect(await statusFor(`localhost:${port}`)).toBe(200);
      expect(await statusFor('evil0.example')).toBe(403);
      expect(refused.at(-1)).toBe('Invalid Host: evil0.example');
    } finally {
      server.close();
    }
  });
});
