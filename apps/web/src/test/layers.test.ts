// @vitest-environment node
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The web app's layers (docs/architecture.md, "Layers") hold because lint rejects what crosses them:
 * ESLint, with the repository's own configuration, is given planted imports of each forbidden kind and
 * must name the rule that refuses each. Only the planted files are linted, and their imports reach small
 * modules, so the cycle rules have little to follow.
 */

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const src = path.join(root, 'apps/web/src');
// Cycles are found by reading the imported files, so those two cases are files in the tree (removed after).
const planted = path.join(src, 'lib', `planted-cycle-${process.pid}-${Date.now()}`);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
  mkdirSync(planted, { recursive: true });
});
afterAll(() => rmSync(planted, { recursive: true, force: true }));

/** The errors ESLint gives `code` as the file `file` (under apps/web/src). */
async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(src, file) });
  return result!.messages.filter((m) => m.severity === 2);
}

async function lintPlanted(files: Record<string, string>): Promise<Record<string, Linter.LintMessage[]>> {
  for (const [name, code] of Object.entries(files)) writeFileSync(path.join(planted, name), code);
  const results = await eslint.lintFiles(Object.keys(files).map((name) => path.join(planted, name)));
  return Object.fromEntries(
    results.map((r) => [path.basename(r.filePath), r.messages.filter((m) => m.severity === 2)]),
  );
}

/** An error of the rule `ruleId`, its message holding `message` (text or pattern). */
const refusal = (ruleId: string, message?: string | RegExp) =>
  expect.objectContaining({
    ruleId,
    ...(message === undefined
      ? {}
      : {
          message:
            typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message),
        }),
  });

// A limit, not a wait: the first lint loads ESLint, its plugins and the configuration.
describe('lint holds the web app’s layers', { timeout: 120_000 }, () => {
  it('allows the imports the layers allow (a feature uses components, a store a lib primitive)', async () => {
    expect(
      await lint(
        'features/search/planted.ts',
        "import { Button } from '../../components/button.tsx';\nexport const planted = Button;\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'stores/planted.ts',
        "import { clock } from '../lib/clock.ts';\nexport const planted = clock;\n",
      ),
    ).toEqual([]);
  });

  it('refuses a feature importing app/', async () => {
    const errors = await lint(
      'features/search/planted.ts',
      "import { preloadablePage } from '../../app/preloadable-page.tsx';\nexport const planted = preloadablePage;\n",
    );
    expect(errors).toEqual([refusal('import-x/no-restricted-paths', 'features must not import app/')]);
  });

  it('refuses a feature importing another feature', async () => {
    const errors = await lint(
      'features/search/planted.ts',
      "import { PAGE_SHARE } from '../discover/carousel-scroll.ts';\nexport const planted = PAGE_SHARE;\n",
    );
    expect(errors).toEqual([
      refusal('import-x/no-restricted-paths', 'features must not import other features'),
    ]);
  });

  it('refuses a lib primitive importing stores (and a type-only import counts)', async () => {
    const errors = await lint(
      'lib/planted.ts',
      "import { useMigrationStatus } from '../stores/migration-status.ts';\nimport type { Account } from '../stores/account-store.ts';\nexport const planted = (a: Account) => [a, useMigrationStatus];\n",
    );
    expect(errors).toEqual([
      refusal('import-x/no-restricted-paths', 'lib primitives must not import stores'),
      refusal('import-x/no-restricted-paths', 'lib primitives must not import stores'),
    ]);
  });

  it('refuses shared components importing a feature', async () => {
    const errors = await lint(
      'components/planted.ts',
      "import { PAGE_SHARE } from '../features/discover/carousel-scroll.ts';\nexport const planted = PAGE_SHARE;\n",
    );
    expect(errors).toEqual([
      refusal('import-x/no-restricted-paths', 'shared components must not import features'),
    ]);
  });

  it('refuses stores importing the account/sync layer', async () => {
    const errors = await lint(
      'stores/planted.ts',
      "import { backoffDelay } from '../lib/sync/backoff.ts';\nexport const planted = backoffDelay;\n",
    );
    expect(errors).toEqual([refusal('import-x/no-restricted-paths', 'stores must not import')]);
  });

  it('refuses an import cycle closed by a type-only import', async () => {
    const errors = await lintPlanted({
      'a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'b.ts': "import type { a } from './a.ts';\nexport const b = 1;\nexport type A = typeof a;\n",
    });
    // import-x/no-cycle skips type-only imports; the repository's own rule follows them.
    expect(errors['b.ts']).toEqual([refusal('marquee/no-type-import-cycle', /b\.ts → \S*a\.ts → \S*b\.ts$/)]);
  });

  it('refuses an import cycle closed by a lazy import()', async () => {
    const errors = await lintPlanted({
      'c.ts': "import { load } from './d.ts';\nexport const c = load;\n",
      'd.ts': "export const load = () => import('./c.ts');\n",
    });
    expect(errors['c.ts']).toEqual([refusal('import-x/no-cycle')]);
    expect(errors['d.ts']).toEqual([refusal('import-x/no-cycle')]);
  });
});
