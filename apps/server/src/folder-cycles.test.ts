// The server's folders import each other in one direction (docs/architecture.md). eslint.config.js
// forbids imports that run up the layers; this test walks every import and fails on a cycle between
// folders: top-level ones (http, db, auth, access, realtime, ...) and one per feature.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** Entry points, tools and test helpers: not part of the layers (they may import anything). */
const OUTSIDE = /^(test|bench|seed|startup)\/|^(main|start)\.ts$|(\.test|-cli|test-helpers|test-client)\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [path.relative(ROOT, file).split(path.sep).join('/')] : [];
  });
}

/** The folder a file belongs to: one per feature (`features/x`), else its top-level folder or file. */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'features' && parts.length > 2) return `features/${parts[1]}`;
  return parts[0] ?? file;
}

const IMPORT = /(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Folder → folders it imports. */
function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(ROOT).filter((name) => !OUTSIDE.test(name))) {
    const from = folderOf(file);
    for (const match of readFileSync(path.join(ROOT, file), 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2];
      if (!specifier) continue;
      const to = folderOf(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
      if (to === from) continue;
      graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan): each is one or more cycles. */
function cyclicGroups(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder) ?? 0);
    stack.push(folder);
    for (const next of graph.get(folder) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder) ?? 0, low.get(next) ?? 0));
      } else if (stack.includes(next)) {
        low.set(folder, Math.min(low.get(folder) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(folder) === index.get(folder)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member !== undefined) group.push(member);
      } while (member !== undefined && member !== folder);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const folder of graph.keys()) if (!index.has(folder)) visit(folder);
  return groups;
}

describe('server folders', () => {
  it('import each other in one direction only (no cycle)', () => {
    expect(cyclicGroups(folderGraph())).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['access', new Set(['auth'])],
      ['auth', new Set(['access', 'db'])],
    ]);
    expect(cyclicGroups(graph)).toEqual([['access', 'auth']]);
  });
});
