// Node (Playwright runner, no browser): the built manifests of both browsers request exactly the permissions the
// Permissions section of docs/permissions-and-budgets.md (linked from README) lists and explains, and never
// webNavigation.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DIST_CHROME, DIST_FIREFOX } from './fixtures/extension';

interface Manifest {
  permissions?: string[];
  optional_permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  content_scripts?: { matches: string[] }[];
}

/** Everything a manifest asks for, host access included (content-script matches are host access too). */
function requested(dir: string): string[] {
  const m = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as Manifest;
  const all = [
    ...(m.permissions ?? []),
    ...(m.optional_permissions ?? []),
    ...(m.host_permissions ?? []),
    ...(m.optional_host_permissions ?? []),
    ...(m.content_scripts ?? []).flatMap((c) => c.matches),
  ];
  return [...new Set(all)].sort();
}

/** The first-column names of the Permissions table in docs/permissions-and-budgets.md. */
function documented(): string[] {
  const readme = readFileSync('docs/permissions-and-budgets.md', 'utf8');
  const start = readme.indexOf('\n## Permissions\n');
  expect(start, 'docs/permissions-and-budgets.md has a Permissions section').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const names = [...section.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1] as string);
  return [...new Set(names)].sort();
}

for (const [browser, dir] of [
  ['Chrome', DIST_CHROME],
  ['Firefox', DIST_FIREFOX],
] as const) {
  test(`${browser} build: requests only the permissions docs/permissions-and-budgets.md explains, and not webNavigation`, () => {
    const asked = requested(dir);
    expect(asked).not.toContain('webNavigation');
    expect(asked).not.toContain('tabs');
    expect(asked).toEqual(documented());
  });
}
