// The kit's programmatic API, the package's main entry (`import { startMock } from 'lmskit'`): a mock
// started from an integrator's own test suite, and the conformance suite run from code. What is
// exported here is a promise to integrators (docs/guide.md, "Use it from your tests"); change it the
// way a library changes its API.
//
// startMock runs the mock in the caller's process, not as a child process: a test suite starts many
// (one per file or per test) and each starts in milliseconds once the kit is loaded, stop()
// resolves once the port is closed, and no process is left behind when the test runner is killed.
// Each mock has its own platform state, virtual clock, limits, upload extractor, admin token and
// webhook dispatcher on its own port, and the kit keeps nothing that changes at module level, so
// mocks in one process do not see each other. What a child process would add — a crash
// of the mock not taking the tests along — the mock does not need: every error ends in an answer in
// the API's shape. A suite that wants the process anyway runs `npx lmskit mock --port N`.
export type { JsonReport as ConformanceReport } from '../conformance/reporters/json.ts';
export type { Result as ConformanceResult } from '../conformance/types.ts';
export type { AdminClient } from '../lib/admin-client.ts';
export type { McpServer, McpServerOptions } from '../mcp-server/start.ts';
export { startMcpServer } from '../mcp-server/start.ts';
export { type ConformanceOptions, runConformance } from './run-conformance.ts';
export { startMock } from './start-mock.ts';
export type * from './types.ts';
