// Node (vitest): the API-doc check fails on an undocumented export planted in a tiny declaration tree, wherever
// the export is declared (directly, re-exported, renamed, through `export *` or an import exported again).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkApiDocs } from './check-api-docs';

const made: string[] = [];

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return join(dir, 'index.d.ts');
}

const documented = {
  'index.d.ts':
    "export { analyze, type Options } from './analyze';\nexport * from './more';\nexport { helper as renamed } from './util';\nexport { again } from './again';\n",
  'analyze.d.ts':
    '/** Options. */\nexport interface Options {\n    x: number;\n}\n/**\n * Analyses.\n * @param o the options.\n */\nexport declare function analyze(o: Options): void;\nexport declare function analyze(o: Options, extra: string): void;\n',
  'more/index.d.ts':
    "/** A constant. */\nexport declare const LIMIT = 3;\n/** A kind. */\nexport type Kind = 'a' | 'b';\n",
  'util.d.ts': '/** Helps. */\nexport declare function helper(): void;\nexport declare function internal(): void;\n',
  'again.d.ts': "import { thing } from './thing';\nexport { thing as again };\n",
  'thing.d.ts': '/** The thing. */\nexport declare class thing {\n    run(): void;\n}\n',
};

describe('check-api-docs', () => {
  it('passes when every export reachable from the index has a doc comment (unexported helpers need none)', () => {
    expect(checkApiDocs(tree(documented))).toEqual([]);
  });

  it('fails on a planted undocumented export, naming it and where it is declared', () => {
    const planted = {
      ...documented,
      'more/index.d.ts': documented['more/index.d.ts'] + 'export declare function undocumented(): void;\n',
    };
    expect(checkApiDocs(tree(planted))).toEqual(['undocumented (more/index.d.ts:5) has no /** */ doc comment']);
  });

  it('follows renames and imports exported again, and does not take a plain or empty comment for a doc', () => {
    const planted = {
      ...documented,
      'util.d.ts': '// Helps.\nexport declare function helper(): void;\n',
      'thing.d.ts': '/** */\nexport declare class thing {\n}\n',
    };
    expect(checkApiDocs(tree(planted))).toEqual([
      'renamed (util.d.ts:2) has no /** */ doc comment',
      'again (thing.d.ts:2) has no /** */ doc comment',
    ]);
  });

  it('reports an export whose declaration it cannot find', () => {
    const planted = { ...documented, 'index.d.ts': documented['index.d.ts'] + "export { missing } from './util';\n" };
    expect(checkApiDocs(tree(planted))).toEqual(['missing: declaration not found from util.d.ts:1']);
  });
});

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
