import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { REFUSAL, withoutInnerHtml } from './preact-without-inner-html';

// The installed Preact is what the build transforms: an upgrade that moves its innerHTML write fails here first.
const preactModule = readFileSync(createRequire(import.meta.url).resolve('preact'), 'utf8');

describe("the extension's Preact", () => {
  it('has its one innerHTML write replaced by a throw that says why, and nothing else changed', () => {
    const code = withoutInnerHtml(preactModule);
    expect(preactModule).toMatch(/\.innerHTML=/);
    expect(code).not.toMatch(/\.innerHTML\s*=/);
    expect(code).toContain(JSON.stringify(REFUSAL));
    expect(code.replace(`(()=>{throw new Error(${JSON.stringify(REFUSAL)})})()`, '')).toBe(
      preactModule.replace(/\b[\w$]+\.innerHTML=[\w$]+\.__html\b/, ''),
    );
  });

  it('fails the build when the write is not there exactly once', () => {
    expect(() => withoutInnerHtml('export const x = 1;')).toThrow(/found 0/);
  });
});
