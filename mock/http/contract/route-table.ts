// Which operation a request is for: the contract's paths, by method, most specific first (literal
// segments before templated ones, so `/statistics/leaders` wins over `/statistics/{scope}`), matched
// as Express matches a route (any case, one trailing slash allowed, path parameters decoded, a HEAD
// answered by the GET). One table lookup per request instead of the router trying a route layer per
// operation, which showed in the request's profile (bench/RESULTS.md).

export interface Matched<T> {
  value: T;
  params: Record<string, string>;
}

interface Route<T> {
  pattern: RegExp;
  names: string[];
  specificity: string;
  value: T;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `0` for a literal segment, `1` for a templated one: sorting by it puts literal paths first. */
export const specificity = (path: string) =>
  path
    .split('/')
    .map((s) => (s.startsWith('{') ? '1' : '0'))
    .join('');

/** A contract path as Express matches it: any case, one trailing slash allowed; `names` of its parameters. */
export function pathPattern(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^\{([^}]+)\}$/.exec(segment);
      if (!param) return escapeRegExp(segment);
      names.push(param[1] as string);
      return '([^/]+?)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`, 'i'), names };
}

/** A path parameter that is not valid percent-encoding: a 400, as Express answers it. */
function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw Object.assign(new Error(`Failed to decode param '${value}'`), { status: 400 });
  }
}

export class RouteTable<T> {
  private readonly byMethod = new Map<string, Route<T>[]>();

  /** `path` as the contract writes it (`/courses/{courseId}`), `method` in any case. */
  add(method: string, path: string, value: T): void {
    const route = { ...pathPattern(path), specificity: specificity(path), value };
    const routes = [...(this.byMethod.get(method.toUpperCase()) ?? []), route];
    this.byMethod.set(
      method.toUpperCase(),
      routes.sort((a, b) => a.specificity.localeCompare(b.specificity)),
    );
  }

  match(method: string, path: string): Matched<T> | undefined {
    const routes = this.byMethod.get(method) ?? (method === 'HEAD' ? this.byMethod.get('GET') : undefined);
    if (!routes) return undefined;
    for (const route of routes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < route.names.length; i++)
        params[route.names[i] as string] = decode(found[i + 1] as string);
      return { value: route.value, params };
    }
    return undefined;
  }
}
