// No import circle among the kit's own modules (mock/, conformance/, mcp-server/, package/, lib/): a
// circle makes the order modules load in matter (a value read before its module ran is undefined) and
// ties parts together that the layering keeps apart (docs/architecture.md: the domain below the seeds
// and the transport, the checks above the suite's vocabulary). Type-only imports count too, as
// `madge --circular` counts them: the rule is no circle, type-only or not.
//
// The graph is read with TypeScript's own scanner (`ts.preProcessFile`: imports, `export … from`,
// `import type`, `import('…')` in types and calls, `require`) rather than madge, so the check needs no
// package beyond the compiler and takes a fraction of a second.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../lib/paths.ts';

const DIRS = ['mock', 'conformance', 'mcp-server', 'package', 'lib'];

const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A relative specifier's file, as the kit writes them (`./x.ts`; also `./x.js`, `./x`, `./x/index.ts`). */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
}

/** Every module reachable from the directories' .ts files, with the modules it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = DIRS.flatMap((d) => tsFiles(join(ROOT, d)));
  while (queue.length) {
    const file = queue.pop() as string;
    if (graph.has(file)) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const imports = [...new Set(importedFiles.flatMap((i) => resolveImport(file, i.fileName) ?? []))].sort();
    graph.set(file, imports);
    queue.push(...imports);
  }
  return graph;
}

/** The strongly connected components with more than one module, or a module importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The circles through a component as `madge --circular` names them (its depth-first walk: each import
 * back to a module still on the walk's path is one circle, from that module on): `a > b > c`, c
 * importing a.
 */
function circlesIn(graph: Map<string, string[]>, component: string[]): string[][] {
  const done = new Set<string>();
  const path: string[] = [];
  const found: string[][] = [];
  const walk = (v: string) => {
    path.push(v);
    for (const w of graph.get(v) ?? []) {
      if (done.has(w) || !component.includes(w)) continue;
      if (path.includes(w)) found.push(path.slice(path.indexOf(w)));
      else walk(w);
    }
    path.pop();
    done.add(v);
  };
  for (const v of component) if (!done.has(v)) walk(v);
  return found;
}

describe('imports: no circle among the kit’s own modules', () => {
  const graph = importGraph();

  it('reads the modules of every directory', () => {
    for (const dir of DIRS)
      expect(
        [...graph.keys()].some((f) => rel(f).startsWith(`${dir}/`)),
        dir,
      ).toBe(true);
  });

  it('finds no circle, type-only or not', () => {
    const found = circles(graph).flatMap((component) =>
      circlesIn(graph, component).map((c) => c.map(rel).join(' > ')),
    );
    expect(found, `import circles:\n${found.join('\n')}`).toEqual([]);
  });
});
