// Dredd hooks for the contracts as `lmskit export --for dredd` writes them (lib/dredd-export.ts,
// docs/conformance.md, "With Dredd"):
//
//   npx lmskit export --for dredd --api v2 --out v2.dredd.json
//   dredd v2.dredd.json http://127.0.0.1:4010/api/v2 --hookfiles tools/dredd/hooks.js
//
// Each transaction's operation is looked up, by path and method, in the export Dredd read
// (`transaction.origin.filename`); then the hooks
// - run the operations the export marks `x-dredd-last` after all others, in the order of the mark
//   (those that take away what the others read: the export's path order cannot place them, since
//   one path item holds several operations);
// - skip an operation the export marks `x-dredd-skipped`, and log the reason it gives;
// - send the key the operation's security requirement names: the site key (`X-API-KEY`,
//   LMSKIT_API_KEY), an MCP key with read and write scopes (`X-MCP-Key`, LMSKIT_MCP_KEY) or the mock's
//   admin token (`Authorization: Bearer`, LMSKIT_ADMIN_TOKEN); the first two default to the demo
//   tenant's keys (mock/seed/demo.ts), so a fresh `npx lmskit mock` needs no setting;
// - fill what `x-dredd-from-answer` names (path parameters, top-level properties of a JSON body) from
//   an earlier transaction's answer: ids the platform makes, such as a generation job's, which no
//   example can know; the export's order runs the earlier operation first;
// - build the multipart/form-data body `x-dredd-multipart` describes (Dredd 14 makes none from an
//   OpenAPI 3 description), sent as bytes (`bodyEncoding: 'base64'`);
// - have the answer validated against the contract's schema: Dredd 14 reads no schema from an
//   OpenAPI 3 document and compares the answer with the example alone (the example's keys present,
//   objects and arrays where the example has them: a documented `null` where the example shows an
//   object fails), but validates a body against a JSON Schema it is given as `expected.bodySchema`.
//   The export carries each answer's schema as draft-07 (`x-dredd-body-schema`; the definitions it
//   refers to at the export's root, in `x-dredd-json-schema`).
// Plain CommonJS for Dredd's own loader; `hooks` is the object Dredd hands to a hook file.
const { randomBytes } = require('node:crypto');
const { readFileSync } = require('node:fs');
const hooks = require('hooks');

/** The demo tenant's site key and read + write MCP key (`demoMcpKey('write')` in mock/seed/demo.ts). */
const DEMO_SITE_KEY = 'demo_site_key_4f1c9a7e2b6d8053';
const DEMO_MCP_WRITE_KEY = 'lmcp_R5eRqyUnhTep6BRMm-rTD9gRGEz7G3hXhxi1K0G7jBM';

/** The header each security scheme of the three contracts is sent in, and its value. */
const CREDENTIALS = {
  apiKey: () => ['X-API-KEY', process.env.LMSKIT_API_KEY || DEMO_SITE_KEY],
  mcpKey: () => ['X-MCP-Key', process.env.LMSKIT_MCP_KEY || DEMO_MCP_WRITE_KEY],
  adminToken: () => {
    if (!process.env.LMSKIT_ADMIN_TOKEN) throw new Error('set LMSKIT_ADMIN_TOKEN to the mock’s admin token');
    return ['Authorization', `Bearer ${process.env.LMSKIT_ADMIN_TOKEN}`];
  },
};

const documents = new Map();
/** The parsed answer body of each operation run so far, by export file and operationId. */
const answers = new Map();

/** The export a transaction was made from, read once, and the transaction's operation in it. */
function operationOf(transaction) {
  const file = transaction.origin.filename;
  if (!documents.has(file)) documents.set(file, JSON.parse(readFileSync(file, 'utf8')));
  const doc = documents.get(file);
  const operation = doc.paths?.[transaction.origin.resourceName]?.[transaction.request.method.toLowerCase()];
  return { doc, operation };
}

/** The value an earlier answer holds at a JSON Pointer (RFC 6901); throws where there is none. */
function fromAnswer(transaction, what, { operationId, pointer }) {
  const answer = answers.get(`${transaction.origin.filename} ${operationId}`);
  const value = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((node, token) => (node == null ? undefined : node[token]), answer);
  if (value === undefined)
    throw new Error(
      `${what} comes from the answer of ${operationId} (${pointer}), which this run did not get`,
    );
  return value;
}

/** The path template (`/ai/courses/generate/{jobId}`) filled from the path Dredd made and from answers. */
function fillPath(transaction, fromPath) {
  const [path, query] = transaction.request.uri.split(/\?(.*)/s);
  const sent = path.split('/');
  const filled = transaction.origin.resourceName.split('/').map((segment, i) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    return name && fromPath[name]
      ? encodeURIComponent(String(fromAnswer(transaction, name, fromPath[name])))
      : sent[i];
  });
  const uri = `${filled.join('/')}${query ? `?${query}` : ''}`;
  const prefix = transaction.fullPath.slice(0, transaction.fullPath.length - transaction.request.uri.length);
  transaction.request.uri = uri;
  transaction.fullPath = `${prefix}${uri}`;
  transaction.id = `${transaction.request.method} (${transaction.expected.statusCode}) ${uri}`;
}

/** The JSON body with the properties `fromBody` names taken from answers. */
function fillBody(transaction, fromBody) {
  const body = transaction.request.body ? JSON.parse(transaction.request.body) : {};
  for (const [name, source] of Object.entries(fromBody)) body[name] = fromAnswer(transaction, name, source);
  transaction.request.body = JSON.stringify(body);
}

/** A multipart/form-data body of one file, as bytes. */
function multipart(transaction, { field, filename, contentType, base64 }) {
  const boundary = `lmskit-dredd-${randomBytes(12).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    Buffer.from(base64, 'base64'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  for (const name of Object.keys(transaction.request.headers))
    if (name.toLowerCase() === 'content-type') delete transaction.request.headers[name];
  transaction.request.headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
  transaction.request.body = body.toString('base64');
  transaction.request.bodyEncoding = 'base64';
}

hooks.beforeAll((transactions, done) => {
  // Dredd runs the array it hands here, read one index at a time: sorting it in place reorders the run.
  const lastOf = (transaction) => operationOf(transaction).operation?.['x-dredd-last'] ?? 0;
  transactions.sort((a, b) => lastOf(a) - lastOf(b));
  done();
});

hooks.beforeEach((transaction, done) => {
  try {
    const { doc, operation } = operationOf(transaction);
    if (!operation) {
      transaction.fail = `no operation ${transaction.request.method} ${transaction.origin.resourceName} in ${transaction.origin.filename}: is it a file \`lmskit export --for dredd\` wrote?`;
      return done();
    }
    const skipped = operation['x-dredd-skipped'];
    if (skipped) {
      transaction.skip = true;
      hooks.log(`skip ${transaction.request.method} ${transaction.origin.resourceName}: ${skipped}`);
      return done();
    }
    for (const requirement of operation.security ?? doc.security ?? [])
      for (const scheme of Object.keys(requirement)) {
        const credential = CREDENTIALS[scheme];
        if (!credential) throw new Error(`no credential for the security scheme ${scheme}`);
        const [header, value] = credential();
        transaction.request.headers[header] = value;
      }
    const from = operation['x-dredd-from-answer'];
    if (from?.path) fillPath(transaction, from.path);
    if (from?.body) fillBody(transaction, from.body);
    if (operation['x-dredd-multipart']) multipart(transaction, operation['x-dredd-multipart']);
    const contentType = transaction.expected.headers?.['Content-Type'];
    const schema =
      operation.responses?.[transaction.expected.statusCode]?.content?.[contentType]?.['x-dredd-body-schema'];
    if (schema) {
      // The schema's references point into `x-dredd-json-schema` at the root, as they do in the export.
      const root = doc['x-dredd-json-schema'];
      transaction.expected.bodySchema = {
        $schema: root.$schema,
        'x-dredd-json-schema': root,
        allOf: [schema],
      };
    }
  } catch (error) {
    transaction.fail = error.message;
  }
  done();
});

hooks.afterEach((transaction, done) => {
  try {
    const { operation } = operationOf(transaction);
    if (operation && transaction.real?.body)
      answers.set(
        `${transaction.origin.filename} ${operation.operationId}`,
        JSON.parse(transaction.real.body),
      );
  } catch {
    // An answer that is not JSON holds nothing a later request can take.
  }
  done();
});
