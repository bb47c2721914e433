import { describe, expect, it } from 'vitest';

// Every source file of the web app, as text (Vite's glob, so the test needs no Node types).
const SOURCES = import.meta.glob<string>(['./**/*.ts', './**/*.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The folder a file belongs to: one per feature (`features/x`), per components group, else top level. */
function folderOf(file: string): string {
  const parts = file.replace(/^\.\//, '').split('/');
  if ((parts[0] === 'features' || parts[0] === 'components') && parts.length > 2) {
    return `${parts[0]}/${parts[1]}`;
  }
  return parts.length > 1 ? (parts[0] ?? file) : file;
}

function resolve(from: string, specifier: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

const IMPORT = /(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Folder → folders it imports, with one importing file per edge for the failure message. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const [file, text] of Object.entries(SOURCES)) {
    const from = folderOf(file);
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      if (!specifier) continue;
      const to = folderOf(resolve(file, specifier));
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${file} imports ${specifier}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Each cycle once, as the chain of importing files that closes it. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (folder: string, path: string[], reasons: string[]) => {
    for (const [next, reason] of graph.get(folder) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        if (at === 0) found.push([...reasons, reason]);
        continue;
      }
      if (!done.has(next)) visit(next, [...path, next], [...reasons, reason]);
    }
  };
  for (const folder of graph.keys()) {
    visit(folder, [folder], []);
    done.add(folder);
  }
  return found;
}

describe('web app folders', () => {
  it('import each other in one direction only (no folder-level cycles)', () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it('keep shared components free of features', () => {
    const intoFeatures = [...folderGraph()]
      .filter(([from]) => from.startsWith('components/'))
      .flatMap(([, edges]) => [...edges].filter(([to]) => to.startsWith('features/')).map(([, why]) => why));
    expect(intoFeatures).toEqual([]);
  });
});
