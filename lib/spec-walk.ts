// Walking a bundled OpenAPI 3.1 document: following internal `$ref`s, the HTTP methods a path item
// may hold, and every operation with its parameters. Every part of the kit that walks a spec by hand
// (the docs site, the conformance suite, the contract tests, the fuzz tests) comes through here.

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are walked generically.
export type Node = Record<string, any>;

/** The operations a path item may hold (OpenAPI 3.1, Path Item Object), in the specification's order. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** Follows internal `$ref`s (`#/components/...`) of a bundled document to the object they name. */
export function resolveRef(spec: Node, node: Node | undefined): Node | undefined {
  let n = node;
  while (n?.$ref) {
    n = (n.$ref as string)
      .slice(2)
      .split('/')
      .reduce((acc: Node, k: string) => acc?.[k.replaceAll('~1', '/').replaceAll('~0', '~')], spec);
  }
  return n;
}

export interface SpecOperation {
  method: HttpMethod;
  path: string;
  operation: Node;
  /** Path-level parameters first, then the operation's own; `$ref`s not followed. */
  parameters: Node[];
}

/** Every operation under `paths`, in document order (methods in `HTTP_METHODS` order). */
export function operations(spec: Node): SpecOperation[] {
  return Object.entries((spec.paths ?? {}) as Record<string, Node>).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((method) => ({
      method,
      path,
      operation: item[method] as Node,
      parameters: [...(item.parameters ?? []), ...(item[method].parameters ?? [])] as Node[],
    })),
  );
}
