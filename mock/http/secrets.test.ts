// What the request journal masks (secrets.ts; docs/mock.md, Secrets in the journal): the secrets a
// contract marks, found by walking a schema through `$ref`s, compositions, arrays and maps; headers
// by their names; text that cannot be parsed by the names the schema gives.
import { describe, expect, it } from 'vitest';
import { loadSpecs } from '../specs.ts';
import { isSecretHeader, maskSecret, maskText, maskValue, secretTree } from './secrets.ts';

const spec = {
  components: {
    schemas: {
      Login: {
        type: 'object',
        properties: { user: { type: 'string' }, password: { type: 'string', format: 'password' } },
      },
      Key: {
        type: 'object',
        properties: { id: { type: 'string' }, key: { type: 'string', 'x-secret': true } },
      },
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
    },
  },
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('secretTree finds the marked fields', () => {
  it('through $ref, allOf, arrays and additionalProperties; a schema without secrets gives none', () => {
    const schema = {
      allOf: [ref('Login'), { properties: { keys: { type: 'array', items: ref('Key') } } }],
      properties: {
        hooks: {
          type: 'object',
          additionalProperties: { properties: { secret: { type: 'string', writeOnly: true } } },
        },
      },
    };
    const tree = secretTree(spec, schema);
    const value = {
      user: 'ada',
      password: 'S3cure-passw0rd-long-enough',
      keys: [{ id: 'key_1', key: 'lmcp_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH' }],
      hooks: { a: { secret: 'signing', url: 'http://x' } },
    };
    expect(maskValue(value, tree)).toEqual({
      user: 'ada',
      password: '••••',
      keys: [{ id: 'key_1', key: '••••EFGH' }],
      hooks: { a: { secret: '••••', url: 'http://x' } },
    });
    // The value itself is not changed.
    expect(value.password).toBe('S3cure-passw0rd-long-enough');
    expect(secretTree(spec, ref('Node'))).toBeUndefined();
  });

  it('masks a secret that is not a string, and leaves what the schema does not know', () => {
    const tree = secretTree(spec, ref('Login'));
    expect(maskValue({ password: 12345678, extra: 'x' }, tree)).toEqual({ password: '••••', extra: 'x' });
    expect(maskValue(null, tree)).toBeNull();
    expect(maskValue('text', tree)).toBe('text');
  });

  it('finds what the contracts mark: v1 passwords, the new MCP key, a receiver’s secret, site keys', () => {
    const { v1, admin } = loadSpecs() as Record<string, any>;
    const body = (api: any, path: string, method: string) =>
      api.paths[path][method].requestBody.content['application/json'].schema;
    const answer = (api: any, path: string, method: string, status: string) =>
      api.paths[path][method].responses[status].content['application/json'].schema;
    expect(
      maskValue({ password: 'x'.repeat(20), name: 'n' }, secretTree(v1, body(v1, '/users', 'post'))),
    ).toEqual({
      password: '••••',
      name: 'n',
    });
    expect(
      maskValue({ password: 'p', email: 'e' }, secretTree(v1, body(v1, '/users/{userId}', 'patch'))),
    ).toEqual({
      password: '••••',
      email: 'e',
    });
    const created = answer(admin, '/tenants/{tenantId}/mcp-keys', 'post', '201');
    expect(maskValue({ id: 'key_3', key: 'lmcp_0123456789abcdef' }, secretTree(admin, created))).toEqual({
      id: 'key_3',
      key: '••••cdef',
    });
    const hook = body(admin, '/tenants/{tenantId}/webhooks', 'post');
    expect(maskValue({ url: 'u', secret: 's3cret-signing-key' }, secretTree(admin, hook))).toEqual({
      url: 'u',
      secret: '••••',
    });
    const tenant = answer(admin, '/tenants', 'post', '201');
    expect(
      maskValue({ id: 'demo', siteApiKey: 'demo_site_key_4f1c9a7e2b6d8053' }, secretTree(admin, tenant)),
    ).toMatchObject({
      siteApiKey: '••••8053',
    });
  });
});

describe('maskText: text that is cut or not JSON', () => {
  it('masks the string of every property a secret is kept under, to the end of a cut text', () => {
    const tree = secretTree(spec, ref('Login'));
    expect(maskText('{"user":"ada","password":"hunter2 \\" more","x":1}', tree)).toBe(
      '{"user":"ada","password":"••••","x":1}',
    );
    expect(maskText('{"user":"ada","password" : "hunter2-cut-he', tree)).toBe(
      '{"user":"ada","password" : "••••"',
    );
    expect(maskText('{"user":"ada"}', undefined)).toBe('{"user":"ada"}');
  });
});

describe('headers and values', () => {
  it('masks a header whose name says token, secret, auth, key, cookie or session; not WWW-Authenticate', () => {
    for (const name of [
      'authorization',
      'proxy-authorization',
      'x-auth-token',
      'x-api-key',
      'x-mcp-key',
      'cookie',
      'set-cookie',
      'x-session-secret',
      'mcp-session-id',
    ])
      expect(isSecretHeader(name), name).toBe(true);
    for (const name of ['www-authenticate', 'content-type', 'keep-alive', 'user-agent', 'x-forwarded-for'])
      expect(isSecretHeader(name), name).toBe(false);
  });

  it('keeps the last 4 characters of a long key only; a short value shows nothing', () => {
    expect(maskSecret('lmcp_R5eRqyUnhTep6BRMm-rTD9gRGEz7G3hXhxi1K0G7jBM')).toBe('••••7jBM');
    expect(maskSecret('short-secret')).toBe('••••');
  });
});
