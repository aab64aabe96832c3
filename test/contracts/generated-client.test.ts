// The contracts as a client generator reads them: types that openapi-typescript writes from the three
// bundles (with the kit's options, lib/generate.ts) must let a client written against them under
// `tsc --strict` read what the seeds say an answer holds, and a schema must not trip the generators an
// integrator reaches for (openapi-python-client).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { OPENAPI_TS_OPTIONS } from '../../lib/generate.ts';
import { API_NAMES, ROOT } from '../../lib/paths.ts';
import { resolveRef } from '../../lib/spec-walk.ts';
import { loadBundle } from '../helpers.ts';

const run = promisify(execFile);

/**
 * A client of the three APIs through openapi-fetch, each line a use the seeds promise: the
 * capabilities' resources as items with a shape (seed 000, Capabilities response: their shape is the
 * kit's choice, x-assumed), a completed generation job's `result.courseId` (seed 000, Generation job:
 * "`result.courseId` when completed"), an upload built from a Blob (seed 000, upload_source_material:
 * multipart), the platform statistics' counters (seed 001, Statistics) and an admin call.
 */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths as AdminPaths } from './admin';
import type { components as V2, paths as V2Paths } from './v2';
import type { paths as V1Paths } from './v1';

type Resource = V2['schemas']['Capabilities']['resources'][number];

export async function client(base: string, siteKey: string, mcpKey: string, adminToken: string) {
  const v1 = createClient<V1Paths>({ baseUrl: \`\${base}/openapi/v1\`, headers: { 'X-API-KEY': siteKey } });
  const v2 = createClient<V2Paths>({ baseUrl: \`\${base}/api/v2\`, headers: { 'X-MCP-Key': mcpKey } });
  const admin = createClient<AdminPaths>({
    baseUrl: \`\${base}/__admin\`,
    headers: { Authorization: \`Bearer \${adminToken}\` },
  });

  // 1. getStatistics (v1): the counters under \`statistics\`.
  const stats = await v1.GET('/statistics');
  const users: number | undefined = stats.data?.statistics.usersCount;

  // 2. getCapabilities (v2): resources are items with a uri and a name.
  const caps = await v2.GET('/mcp/capabilities');
  const uris: string[] = (caps.data?.resources ?? []).map((r) => r.uri);
  const resource: Resource = { uri: 'lms://courses/7', name: 'workplace-safety' };
  // @ts-expect-error: a resource has a uri
  const nameless: Resource = { name: 'workplace-safety' };

  // 3. generateCourse and 4. getGenerationJob (v2): result is there once the job is completed.
  const started = await v2.POST('/ai/courses/generate', { body: { prompt: 'Fire safety for new hires' } });
  const jobId = started.data?.jobId ?? 'job_1';
  const { data: job } = await v2.GET('/ai/courses/generate/{jobId}', { params: { path: { jobId } } });
  let courseId: number | undefined;
  if (job?.status === 'completed') courseId = job.result.courseId;
  else if (job?.status === 'failed') console.log(job.error.message);
  // @ts-expect-error: a job that may still be queued has no result to read
  const early: number = job?.result.courseId;

  // 5. uploadSourceMaterial (v2): the file part is a Blob, sent as multipart/form-data.
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const upload = await v2.POST('/chat/source-materials/upload', {
    body: { file: new Blob([png], { type: 'image/png' }) },
    bodySerializer(body) {
      const form = new FormData();
      form.append('file', body.file, 'policy.png');
      if (body.sessionId) form.append('sessionId', body.sessionId);
      return form;
    },
  });
  const sessionId: string | undefined = upload.data?.sessionId;

  // 6. getClock (admin).
  const clock = await admin.GET('/clock');

  return { users, uris, resource, nameless, courseId, early, sessionId, clock: clock.data };
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  },
  include: ['*.ts'],
};

describe('generated clients can use the contracts', () => {
  let dir = '';
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('openapi-typescript types of the three contracts carry a client under tsc --strict: resources with a shape, a completed job with its result, an upload from a Blob (seed 000 Capabilities response, Generation job, upload_source_material)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'lmskit-client-'));
    for (const api of API_NAMES) {
      const types = astToString(await openapiTS(loadBundle(api) as never, OPENAPI_TS_OPTIONS));
      await writeFile(join(dir, `${api}.ts`), types);
    }
    await writeFile(join(dir, 'client.ts'), CLIENT);
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    // openapi-fetch (a dependency of the kit) resolved as a project of the integrator's would.
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', dir, '--strict'], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
    );
    expect(result).toBe('');
  }, 60_000);

  it('no schema has an object or list property named like itself, which openapi-python-client cannot type (openapi/README.md, Naming)', () => {
    const clashes: string[] = [];
    for (const api of API_NAMES) {
      const spec = loadBundle(api);
      for (const [name, schema] of Object.entries((spec.components?.schemas ?? {}) as Record<string, any>)) {
        for (const [property, node] of Object.entries((schema.properties ?? {}) as Record<string, any>)) {
          const target = resolveRef(spec, node) ?? {};
          const types = [target.type].flat();
          const scalar =
            !target.properties && !target.items && !types.some((t) => t === 'object' || t === 'array');
          if (!scalar && property.toLowerCase() === name.toLowerCase())
            clashes.push(`${api} ${name}.${property}`);
        }
      }
    }
    expect(clashes).toEqual([]);
  });
});
