// Runs in Node (the lab's fixture recorders): writing one recorded fixture into fixtures/<name>/.
import { chmodSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a fixture directory holds: the HAR, its chunk companion, and the findings it must and must not give. */
export interface FixtureFiles {
  har: string;
  ndjson: string;
  expected: unknown;
}

/** Replaces fixtures/<name>/ whole, so a recording never mixes with the files of an older one. */
export function writeFixture(outDir: string, name: string, recorded: FixtureFiles): void {
  const staging = mkdtempSync(join(outDir, `.${name}-`));
  chmodSync(staging, 0o755);
  writeFileSync(join(staging, 'capture.har'), recorded.har);
  writeFileSync(join(staging, 'chunks.ndjson'), recorded.ndjson);
  writeFileSync(join(staging, 'expected.json'), `${JSON.stringify(recorded.expected, null, 2)}\n`);
  const target = join(outDir, name);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}
