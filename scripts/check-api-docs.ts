// Node (build:node, after the declaration build): every export of the library's entries has a /** */ doc comment.
// Reads dist/types/core/index.d.ts and dist/types/playwright/index.d.ts and follows their re-exports through the
// emitted .d.ts files. TypeScript 7 has no JavaScript compiler API, so this reads tsc's declaration output, which is
// regular: one top-level declaration per statement, starting at column 0, its doc comment directly above it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A top-level declaration: `export declare function f(`, `interface I`, `type T =`, `declare const c:`... */
const DECLARATION =
  /^(?:export )?(?:declare )?(?:abstract )?(?:function|const|let|var|class|interface|type|enum|namespace) ([A-Za-z_$][\w$]*)/;
/** `export { a, b as c } from './m';`, `export type { ... } from`, `export * from`, and local `export { a };`. */
const EXPORT_LIST = /^export (?:type )?(?:\{([^}]*)\}|\*)(?: from '([^']+)')?;/gm;
const IMPORT_LIST = /^import (?:type )?\{([^}]*)\} from '([^']+)';/gm;

interface Binding {
  /** The name in the module it comes from. */
  name: string;
  from: string;
}

interface Module {
  /** Declarations of this file by name: whether any of them (overloads) carries a doc comment, and its line. */
  declared: Map<string, { documented: boolean; line: number }>;
  /** Names this file exports that live elsewhere (`export { x } from`, or an imported name exported again). */
  forwarded: Map<string, Binding>;
  /** `export * from` targets. */
  stars: string[];
  /** Names this file exports, whether declared here or forwarded. */
  exported: Set<string>;
}

/** Problems found, one line each ("name (file:line) has no doc comment"); empty when every export is documented. */
export function checkApiDocs(entry: string): string[] {
  const modules = new Map<string, Module>();
  const load = (file: string): Module => {
    let module = modules.get(file);
    if (!module) {
      module = parseModule(readFileSync(file, 'utf8'), dirname(file));
      modules.set(file, module);
    }
    return module;
  };
  const problems: string[] = [];
  const base = dirname(entry);
  const where = (file: string, line: number) => `${relative(base, file) || file}:${line}`;

  /** Finds where `name` exported by `file` is declared and checks its comment; `seen` guards against loops. */
  const check = (file: string, name: string, exportedAs: string, seen: Set<string>): void => {
    const key = `${file}#${name}`;
    if (seen.has(key)) return;
    seen.add(key);
    const module = load(file);
    const forward = module.forwarded.get(name);
    if (forward) return check(resolveModule(forward.from), forward.name, exportedAs, seen);
    const declaration = module.declared.get(name);
    if (declaration) {
      if (!declaration.documented)
        problems.push(`${exportedAs} (${where(file, declaration.line)}) has no /** */ doc comment`);
      return;
    }
    const star = module.stars.map(resolveModule).find((target) => provides(target, name, new Set()));
    if (star) return check(star, name, exportedAs, seen);
    problems.push(`${exportedAs}: declaration not found from ${where(file, 1)}`);
  };

  const provides = (file: string, name: string, seen: Set<string>): boolean => {
    if (seen.has(file)) return false;
    seen.add(file);
    const module = load(file);
    return module.exported.has(name) || module.stars.some((star) => provides(resolveModule(star), name, seen));
  };

  const index = load(entry);
  for (const name of index.exported) check(entry, name, name, new Set());
  for (const star of index.stars) {
    const target = resolveModule(star);
    for (const name of load(target).exported) check(target, name, name, new Set());
  }
  return problems;
}

function parseModule(text: string, dir: string): Module {
  const lines = text.split('\n');
  const declared = new Map<string, { documented: boolean; line: number }>();
  for (const [i, line] of lines.entries()) {
    const match = DECLARATION.exec(line);
    if (!match?.[1]) continue;
    const name = match[1];
    const documented = hasDocAbove(lines, i);
    const earlier = declared.get(name);
    declared.set(name, { documented: documented || (earlier?.documented ?? false), line: earlier?.line ?? i + 1 });
  }
  const imported = new Map<string, Binding>();
  for (const [, list, from] of text.matchAll(IMPORT_LIST)) {
    for (const item of specifiers(list ?? ''))
      imported.set(item.local, { name: item.remote, from: join(dir, from ?? '') });
  }
  const forwarded = new Map<string, Binding>();
  const stars: string[] = [];
  const exported = new Set<string>();
  for (const line of lines) {
    const match = DECLARATION.exec(line);
    if (match?.[1] && line.startsWith('export ')) exported.add(match[1]);
  }
  for (const [, list, from] of text.matchAll(EXPORT_LIST)) {
    if (list === undefined) {
      stars.push(join(dir, from ?? ''));
      continue;
    }
    for (const item of specifiers(list)) {
      exported.add(item.local);
      if (from !== undefined) forwarded.set(item.local, { name: item.remote, from: join(dir, from) });
      else if (item.remote !== item.local || !declared.has(item.remote)) {
        const source = imported.get(item.remote);
        if (source) forwarded.set(item.local, source);
        else if (declared.has(item.remote)) forwarded.set(item.local, { name: item.remote, from: '' });
      }
    }
  }
  // A local alias (`export { a as b }` of a declaration in this file) checks the declaration itself.
  for (const [local, binding] of forwarded) {
    if (binding.from === '') {
      const declaration = declared.get(binding.name);
      forwarded.delete(local);
      if (declaration) declared.set(local, declaration);
    }
  }
  return { declared, forwarded, stars, exported };
}

/** `a, type b, c as d` -> [{remote: a, local: a}, {remote: b, local: b}, {remote: c, local: d}]. */
function specifiers(list: string): { remote: string; local: string }[] {
  return list
    .split(',')
    .map((s) => s.trim().replace(/^type\s+/, ''))
    .filter((s) => s !== '')
    .map((s) => {
      const [remote, local] = s.split(/\s+as\s+/);
      return { remote: remote ?? s, local: local ?? remote ?? s };
    });
}

/** True when the lines right above `at` end a comment that opened with `/**` and says something. */
function hasDocAbove(lines: readonly string[], at: number): boolean {
  let i = at - 1;
  if (i < 0 || !(lines[i] ?? '').trim().endsWith('*/')) return false;
  const body: string[] = [];
  for (; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    body.unshift(line);
    if (line.startsWith('/**')) break;
    if (line.startsWith('/*') || !(line.startsWith('*') || line.endsWith('*/'))) return false;
  }
  if (i < 0) return false;
  const words = body
    .join(' ')
    .replace(/^\/\*\*|\*\/$/g, '')
    .replace(/(^|\s)\*(?=\s|$)/g, ' ');
  return words.trim() !== '';
}

function resolveModule(path: string): string {
  const bare = path.replace(/\.(js|ts)$/, '');
  for (const candidate of [`${bare}.d.ts`, join(bare, 'index.d.ts')]) if (existsSync(candidate)) return candidate;
  return `${bare}.d.ts`;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  // The library and the Playwright fixture: every entry of package.json's `exports`.
  const entries = (process.argv.length > 2 ? process.argv.slice(2) : ['dist/types/core/index.d.ts']).map((e) =>
    resolve(e),
  );
  let failed = false;
  for (const entry of entries) {
    if (!existsSync(entry)) {
      process.stderr.write(`check-api-docs: ${entry} not found (run the declaration build first)\n`);
      process.exit(2);
    }
    const problems = checkApiDocs(entry);
    for (const problem of problems) process.stderr.write(`check-api-docs: ${problem}\n`);
    if (problems.length > 0) {
      failed = true;
      process.stderr.write(
        `check-api-docs: ${problems.length} export(s) of ${relative(process.cwd(), entry)} lack a doc comment\n`,
      );
    } else {
      process.stdout.write(`check-api-docs: every export of ${relative(process.cwd(), entry)} has a doc comment\n`);
    }
  }
  if (failed) process.exit(1);
}
