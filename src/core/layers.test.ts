// The core is layered strictly downward: a module imports only its own folder or lower tiers, and no import
// (type-only ones included) closes a circle. Tests and test support (which may reach up, e.g. to analyze) are not
// library code and are left out, as tsconfig.core.json and the declaration build leave them out.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const core = dirname(fileURLToPath(import.meta.url));
/** Bottom to top. Folders within a tier may import each other only without a circle. */
const TIERS: readonly (readonly string[])[] = [
  ['web'],
  ['sse', 'mcp', 'ids', 'capture', 'fault'],
  ['model', 'replay'],
  ['guard'],
  ['.'],
];
const TEST_SUPPORT = /\.(test|fixture)\.ts$|^(test-support|testing)\.ts$/;
const tierOf = (folder: string) => TIERS.findIndex((tier) => tier.includes(folder));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !TEST_SUPPORT.test(entry.name) ? [path] : [];
  });
}

const files = sources(core).map((path) => relative(core, path));
const imports = new Map(
  files.map((file) => {
    const text = readFileSync(join(core, file), 'utf8');
    const specs = [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom '(\.[^']*)'/gms)].map((m) => m[1] as string);
    return [file, specs.map((spec) => relative(core, resolve(core, dirname(file), spec)) + '.ts')];
  }),
);
const folderOf = (file: string) => (file.includes('/') ? (file.split('/')[0] as string) : '.');

describe('core layering', () => {
  it('knows every core folder', () => {
    expect(files.map(folderOf).filter((folder) => tierOf(folder) === -1)).toEqual([]);
  });

  it('imports only within the core, from the same tier or below', () => {
    const upward: string[] = [];
    for (const [file, targets] of imports) {
      for (const target of targets) {
        if (target.startsWith('..') || tierOf(folderOf(target)) > tierOf(folderOf(file)))
          upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import circle between folders or between files', () => {
    const folderEdges = new Map<string, Set<string>>();
    for (const [file, targets] of imports) {
      for (const target of targets) {
        if (folderOf(target) !== folderOf(file))
          folderEdges.set(folderOf(file), (folderEdges.get(folderOf(file)) ?? new Set()).add(folderOf(target)));
      }
    }
    expect(findCycle(new Map([...folderEdges].map(([k, v]) => [k, [...v]])))).toEqual([]);
    expect(findCycle(imports)).toEqual([]);
  });
});

/** A circle in the graph as its path (empty when there is none). */
function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] => {
    if (state.get(node) === 'done') return [];
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle.length > 0) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return [];
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle.length > 0) return cycle;
  }
  return [];
}
