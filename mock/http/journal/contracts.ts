// The three contracts as the request journal reads them: the operation a request was for (by its
// operationId, or by method and path for a request a fault answered before any router — found with the
// contract router's own table, contract/operations.ts), the validators its answer is judged with, and
// where the secrets of its bodies are (secrets.ts). Built on the first read, not at start.
import { SpecSchemas } from '../../../lib/openapi-schemas.ts';
import { type Node, resolveRef, type SpecOperation } from '../../../lib/spec-walk.ts';
import type { Specs } from '../../specs.ts';
import { APIS, type ApiName } from '../apis.ts';
import { operationTable, routedOperations } from '../contract/operations.ts';
import type { RouteTable } from '../contract/route-table.ts';
import { documentedResponse } from '../contract/validate-output.ts';
import { type SecretTree, secretTree } from '../secrets.ts';
import type { JournalApi } from './entry.ts';

export type ContractApi = ApiName;

/** The contract a journalled API is judged by: the MCP tool server's requests are v2's; `other` has none. */
export const contractApiOf = (api: JournalApi): ContractApi | null =>
  api === 'mcp' ? 'v2' : api === 'other' ? null : api;

export class JournalContracts {
  private readonly schemas = new Map<ContractApi, SpecSchemas>();
  private readonly secrets = new Map<string, SecretTree | undefined>();
  private operations?: Map<string, SpecOperation>;
  private routes?: Map<string, RouteTable<string>>;

  constructor(private readonly specs: Specs) {}

  spec(api: ContractApi): Node {
    return this.specs[api];
  }

  /** The operation `operationId` of a contract, with its path and method. */
  operation(api: ContractApi, operationId: string): SpecOperation | undefined {
    if (!this.operations) {
      this.operations = new Map();
      for (const { name } of APIS)
        for (const op of routedOperations(this.spec(name)))
          this.operations.set(`${name} ${op.operation.operationId}`, op);
    }
    return this.operations.get(`${api} ${operationId}`);
  }

  /** The operation of a contract that a request's method and path are for, found as the contract router finds it. */
  operationAt(method: string, path: string): string | null {
    if (!this.routes) {
      this.routes = new Map();
      for (const { name: api, prefix } of APIS)
        this.routes.set(
          prefix,
          operationTable(this.spec(api), (op) => String(op.operation.operationId)),
        );
    }
    for (const [prefix, table] of this.routes) {
      if (!path.startsWith(`${prefix}/`)) continue;
      try {
        return table.match(method, path.slice(prefix.length))?.value ?? null;
      } catch {
        return null; // a path parameter that is not valid percent-encoding
      }
    }
    return null;
  }

  /** The validators of a contract's schemas. */
  schemasOf(api: ContractApi): SpecSchemas {
    let schemas = this.schemas.get(api);
    if (!schemas) {
      schemas = SpecSchemas.of(this.specs[api]);
      this.schemas.set(api, schemas);
    }
    return schemas;
  }

  /**
   * Where the secrets are in the request body of an operation (no `status`) or in its answer with
   * `status`, from the operation's schema in the contract (secrets.ts); worked out once per operation
   * and status. None for a request of no operation or of no contract.
   */
  secretsOf(journalApi: JournalApi, operationId: string | null, status?: number): SecretTree | undefined {
    const api = contractApiOf(journalApi);
    if (!api || !operationId) return undefined;
    const key = `${api} ${operationId} ${status ?? 'request'}`;
    if (this.secrets.has(key)) return this.secrets.get(key);
    const spec = this.spec(api);
    const found = this.operation(api, operationId);
    let tree: SecretTree | undefined;
    if (found) {
      const message =
        status === undefined
          ? resolveRef(spec, found.operation.requestBody as Node | undefined)
          : documentedResponse(spec, found, status)?.response;
      const content = (message?.content ?? {}) as Node;
      const schema = (content['application/json'] ?? Object.values(content)[0])?.schema as Node | undefined;
      tree = secretTree(spec, schema);
    }
    this.secrets.set(key, tree);
    return tree;
  }
}
