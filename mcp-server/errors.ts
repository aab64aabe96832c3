// Backend errors as sentences an agent can act on: what happened and what to do.
// The seed leaves the exact strings to the tool server (000, Errors: "Tools convert backend errors
// into readable strings for the agent; the exact strings per tool: not shown").
import type { ToolDefinition } from '../lib/tool-schemas.ts';
import type { BackendAnswer } from './backend.ts';

const messageOf = (body: unknown) => {
  const error = (body as { error?: unknown })?.error;
  return typeof error === 'string' ? error : '';
};
export const codeOf = (body: unknown) => {
  const code = (body as { code?: unknown })?.code;
  return typeof code === 'string' ? code : '';
};

/** The 403 codes of the checks every request of a key meets, whatever it names (licence, scope, AI, permission). */
const KEY_REFUSALS = ['MCP_LICENSE_DISABLED', 'WRITE_SCOPE_REQUIRED', 'MCP_AI_DISABLED', 'PERMISSION_DENIED'];

/**
 * A refusal every call of the key meets now, whatever its arguments: the key refused, no licence, a
 * refusal of the key's rights, the rate limit after its retries, a platform that cannot be reached.
 */
export function refusesEveryCall(answer: BackendAnswer): boolean {
  if ([401, 402, 429].includes(answer.status)) return true;
  if (answer.status === 403) return KEY_REFUSALS.includes(codeOf(answer.body));
  return answer.status === 503 && codeOf(answer.body) === 'BACKEND_UNREACHABLE';
}

/** Calling again unchanged cannot help, so the sentence does not say "try again". */
const tooLarge = (status: number, said: string) =>
  `The request was too large for the platform (HTTP ${status}${said ? `: ${said}` : ''}). Shorten the arguments; the same call will be refused again.`;

export function explainFailure(tool: ToolDefinition, answer: BackendAnswer): string {
  const said = messageOf(answer.body);
  const code = codeOf(answer.body);
  const permission = tool['x-permission'];
  switch (answer.status) {
    case 400:
      return `The platform refused the arguments of ${tool.name}: ${said || 'invalid request'}. Correct them and call again.`;
    case 401:
      return `The MCP key is invalid or revoked, or its owner is banned${said ? ` (the platform says: ${said.replace(/\.$/, '')})` : ''}. Ask your administrator for a new key; no tool will work until then.`;
    case 402:
      return 'This workspace has no MCP licence. Talk to your administrator.';
    case 403:
      switch (code) {
        case 'MCP_LICENSE_DISABLED':
          return 'MCP is not enabled on this workspace. Talk to your administrator.';
        case 'MCP_AI_DISABLED':
          return 'AI tools are disabled on this workspace. An administrator can enable them; until then use the other tools.';
        case 'WRITE_SCOPE_REQUIRED':
          return `${tool.name} changes data, but this key may only read (${said || 'read-only'}). Ask your administrator for a key with the write scope, or for the workspace's MCP access to be set to full.`;
        case 'ROLE_HIERARCHY':
          return `The target user's role is not below yours, so you cannot do this to them. Ask someone with a higher role. (${said})`;
        case 'CHAIN_NOT_OWNED':
          return `Only the owner of a course chain may assign it, and you are not its owner. Ask the owner, or assign the chain's courses one by one with assign_training. (${said})`;
        case 'COURSE_EDIT_DENIED':
          return `You may not edit this course: you neither own it nor is it shared with you. Ask its owner to share it. (${said})`;
        default:
          return `Missing permission ${permission ?? 'for this action'}: the key's owner may not do this. Ask an administrator to do it or to grant the permission.${said ? ` (${said})` : ''}`;
      }
    case 404:
      return `Not found: ${said || 'no such object'}. Check the id — find_user and find_course look ids up.`;
    case 409:
      return code === 'EMAIL_TAKEN'
        ? `That e-mail address is already used by another user. Choose another one. (${said})`
        : `The platform refused because of a conflict: ${said}.`;
    case 413:
      if (code === 'EXTRACTION_LIMIT')
        return `The platform will not read this file: ${said} Upload a smaller or simpler file.`;
      if (tool['x-backend'].some((c) => Object.values(c.args).some((a) => a.as === 'file')))
        return `The file is larger than 20 MB. Upload a smaller file. (${said})`;
      return tooLarge(answer.status, said);
    case 414:
    case 431:
      return tooLarge(answer.status, said);
    case 415:
      return `The file is not a PDF, DOC, DOCX, PNG, JPG, GIF or WebP file. Upload one of those. (${said})`;
    case 422:
      return `The platform cannot do this: ${said}.`;
    case 429:
      if (/quota/i.test(said))
        return `The daily AI quota is used up: ${said} Use the other tools until then.`;
      if (code === 'MCP_AUTH_RATE_LIMITED')
        return `Too many failed logins with wrong MCP keys came from this client: ${said.replace(/\.$/, '')}. Until then every key from this client is refused, a valid one too; check the key you send.`;
      return `The platform is rate-limiting this key${answer.retries ? ` (retried ${answer.retries} times)` : ''}: ${said || 'too many requests'}. Wait, then try again.`;
    case 503:
      if (code === 'BACKEND_UNREACHABLE')
        return `The platform could not be reached (${said}). Try again later; if it persists, check the tool server's --base-url.`;
      return `The platform answered 503${said ? `: ${said}` : ''}. Try again later.`;
    default:
      return `The platform answered ${answer.status}${said ? `: ${said}` : ''}. Try again later; if it persists, tell your administrator.`;
  }
}
