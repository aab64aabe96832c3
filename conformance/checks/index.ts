// Every check of the suite, in the order they run — the table of contents of this folder:
//
// - common/  what the checks are made of: judging an answer (judge.ts), reading one (body.ts), the
//            deployment's courses, users and groups found (discover.ts), what the run makes and
//            neutralises (fixtures.ts), AI generations and uploads (generation.ts), keys (keys.ts),
//            the tool catalogue (tools.ts), the MCP client (mcp-client.ts);
// - v1/      seed 001, the Integration REST API: reads, then one file per resource written;
// - v2/      seed 000, the MCP backend: capabilities, reads, writes, their data, AI, permissions,
//            licence states, limits;
// - mcp/     seed 000 and the MCP specification, the tool server (--mcp-url);
// - probes/  one check per operation, derived from the contracts: harmless requests without a key,
//            with a read-only key, to an unknown target, malformed.
//
// The order matters. Reads first; then writes (--allow-writes); then the AI checks, whose calls each
// key's daily quota counts (./v2/ai-refusals.ts says in which order); then permissions with the role
// keys, the banned owner last among them; then the licence states; then the probes with a missing or
// wrong key — should a deployment count those against a per-IP limit after all, nothing else of the
// run is blocked by it — and last the limit probes (--probe-limits), the failed-login one at the
// very end, since it locks this address out.
import type { Check } from '../types.ts';
import { mcpBackendChecks } from './mcp/backend.ts';
import { mcpCallChecks } from './mcp/calls.ts';
import { mcpListingChecks } from './mcp/listing.ts';
import { noKeyChecks, wrongKeyChecks } from './probes/auth.ts';
import { refusalProbes } from './probes/refusals.ts';
import { roleHierarchyCheck, scopeChecks } from './probes/scope.ts';
import { v1AssignmentChecks } from './v1/assignments.ts';
import { v1AttributeDefinitionChecks } from './v1/attribute-definitions.ts';
import { v1AttributeValueChecks } from './v1/attribute-values.ts';
import { v1GroupChecks } from './v1/groups.ts';
import { v1LeaderChecks } from './v1/leaders.ts';
import { v1ReadChecks } from './v1/read.ts';
import { v1UserBanChecks } from './v1/users-ban.ts';
import { v1UserCreateChecks } from './v1/users-create.ts';
import { v1UserPatchChecks } from './v1/users-patch.ts';
import { v1WebhookChecks } from './v1/webhooks.ts';
import { v2AccessChecks } from './v2/access.ts';
import { aiGenerationChecks } from './v2/ai-generation.ts';
import { aiRefusalChecks } from './v2/ai-refusals.ts';
import { aiRegenerationChecks } from './v2/ai-regeneration.ts';
import { v2AuditChecks } from './v2/audit.ts';
import { v2HierarchyChecks } from './v2/hierarchy.ts';
import { licenceChecks } from './v2/licence.ts';
import { limitChecks } from './v2/limits.ts';
import { v2OwnershipChecks } from './v2/ownership.ts';
import { v2PermissionChecks } from './v2/permissions.ts';
import { v2ReadChecks } from './v2/read.ts';
import { v2ReadContentChecks } from './v2/read-content.ts';
import { v2WriteEffectChecks } from './v2/write-effects.ts';
import { v2WriteChecks } from './v2/writes.ts';

export const ALL_CHECKS: Check[] = [
  // Reads (a site API key, a read key).
  ...v1ReadChecks,
  ...v2AccessChecks,
  ...scopeChecks,
  roleHierarchyCheck,
  ...v2ReadChecks,
  ...v2AuditChecks,
  ...refusalProbes,
  ...mcpListingChecks,
  ...mcpCallChecks,
  ...mcpBackendChecks,
  // Writes through v1 (--allow-writes).
  ...v1UserCreateChecks,
  ...v1UserPatchChecks,
  ...v1UserBanChecks,
  ...v1AttributeDefinitionChecks,
  ...v1AttributeValueChecks,
  ...v1GroupChecks,
  ...v1LeaderChecks,
  ...v1AssignmentChecks,
  ...v1WebhookChecks,
  // Writes through v2, and their data read back by value.
  ...v2WriteChecks,
  ...v2ReadContentChecks,
  ...v2WriteEffectChecks,
  // AI: refusals first, while the write key has calls left.
  ...aiRefusalChecks,
  ...aiGenerationChecks,
  ...aiRegenerationChecks,
  // Permissions with the role keys (--role-key); the banned owner last.
  ...v2PermissionChecks,
  ...v2HierarchyChecks,
  ...v2OwnershipChecks,
  // Licence states and revoked keys (--tenant-key, --revoked-key), the scopes of the keys given.
  ...licenceChecks,
  // Without a key, with a wrong key.
  ...noKeyChecks,
  ...wrongKeyChecks,
  // The deployment's limits (--probe-limits), the failed-login lockout last of all.
  ...limitChecks,
];
