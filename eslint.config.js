import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import marquee from './scripts/eslint-plugin-marquee.js';

const ZOD_IMPORT = {
  name: 'zod',
  allowTypeImports: true,
  message: 'Import z from lib/zod.ts (jitless: no eval under the CSP).',
};
const CONTRACT_BARREL_IMPORT = {
  name: '@marquee/contract',
  allowTypeImports: true,
  message:
    'Import contract values from @marquee/contract/values; the barrel is for types (and form schemas).',
};
/** The one web module that takes schemas from the contract's barrel (after setting zod's jitless mode). */
const FORM_SCHEMA_FILES = ['apps/web/src/lib/contract-schemas.ts'];

// The web app's layers (docs/architecture.md, "Layers"), top to bottom: app level → features →
// components → stores → lib primitives, with the account/sync layer between the features and the stores.
const WEB = './apps/web/src';
/** Routes and layout (app/), the entry (main.tsx) and the installable app's code (pwa/). */
const APP_LEVEL = [`${WEB}/app`, `${WEB}/main.tsx`, `${WEB}/pwa`];
/** Sign-in, the account's calls, sync: modules that drive the stores. */
const ACCOUNT_SYNC = [`${WEB}/lib/account`, `${WEB}/lib/sync`];
/** lib/ outside the account/sync layer; their tests may set up stores. */
const LIB_PRIMITIVES = [`${WEB}/lib/!(*.test).{ts,tsx}`, `${WEB}/lib/!(account|sync)/**/!(*.test).{ts,tsx}`];
/** Every folder of src/features is an island. */
const FEATURES = readdirSync(new URL(`${WEB}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const WEB_LAYER_ZONES = [
  {
    target: `${WEB}/features`,
    from: APP_LEVEL,
    message: 'features must not import app/, main.tsx or pwa/; src/app composes the features',
  },
  ...FEATURES.map((f) => ({
    target: `${WEB}/features/${f}`,
    from: `${WEB}/features`,
    except: [`./${f}`],
    message:
      'features must not import other features: compose them in src/app, or move the shared piece to components/ (UI) or lib/ (logic)',
  })),
  {
    target: `${WEB}/components`,
    from: [`${WEB}/features`, ...APP_LEVEL, ...ACCOUNT_SYNC],
    message:
      'shared components must not import features, app/ or the account/sync layer (lib/account, lib/sync)',
  },
  {
    target: ACCOUNT_SYNC,
    from: [`${WEB}/features`, `${WEB}/components`, ...APP_LEVEL],
    message: 'the account/sync layer (lib/account, lib/sync) must not import features, components or app/',
  },
  {
    target: `${WEB}/stores`,
    from: [`${WEB}/features`, `${WEB}/components`, ...APP_LEVEL, ...ACCOUNT_SYNC],
    message:
      'stores must not import features, components, app/ or the account/sync layer (lib/account, lib/sync)',
  },
  {
    target: LIB_PRIMITIVES,
    from: [`${WEB}/stores`, `${WEB}/features`, `${WEB}/components`, ...APP_LEVEL, ...ACCOUNT_SYNC],
    message:
      'lib primitives must not import stores, features, components, app/ or the account/sync layer (lib/account, lib/sync)',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '.tmp/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'apps/server/assets/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    // import-x reads the imported TypeScript modules too (import-x/no-cycle follows their imports).
    settings: { 'import-x/extensions': ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs'] },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Dependency direction: packages never import apps; the server never imports the web app and back.
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            { target: './packages', from: './apps', message: 'packages must not import apps' },
            {
              target: './apps/server',
              from: './apps/web',
              message: 'the server must not import the web app',
            },
            {
              target: './apps/web',
              from: './apps/server',
              message: 'the web app talks to the server over HTTP only',
            },
            ...WEB_LAYER_ZONES,
            // Layers in the server: repositories and services never import routes.
            { target: './apps/server/src/**/*.service.ts', from: './apps/server/src/**/*.routes.ts' },
            {
              target: './apps/server/src/**/*.repository.ts',
              from: './apps/server/src/**/*.(routes|service).ts',
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles, lazy import() included (allowUnsafeDynamicCyclicDependency: false); import-x/no-cycle
    // skips type-only imports, and marquee/no-type-import-cycle finds the cycles those close. Depth is not
    // limited: reading each module once is the cost, and a limit of 5 ran no faster.
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts', 'packages/*/src/**/*.ts'],
    plugins: { marquee },
    rules: {
      'import-x/no-cycle': [
        'error',
        { maxDepth: '∞', allowUnsafeDynamicCyclicDependency: false, ignoreExternal: true },
      ],
      'marquee/no-type-import-cycle': 'error',
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config.ts', '**/*.test.ts'],
    rules: {
      // process.env is read once, in config.ts.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'read configuration through config.ts' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, i18next },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    // One client for our API (apps/web/src/lib/api): a call site names an endpoint of the contract and its
    // inputs; it never fetches a URL itself nor picks the answer's type (the contract gives it).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [
      'apps/web/src/lib/api/**',
      // Tests build their transports (stubbed fetch, contract-typed handlers).
      '**/*.test.{ts,tsx}',
      // Exempt: the providers package's own fetcher for in-browser scraping asks the sources' sites, not our API.
      'apps/web/src/features/player/scrape/browser-scrape.ts',
      // Exempt: the viewer's own proxy (a service they configured, and its setup test), not our API.
      'apps/web/src/lib/proxy-transport.ts',
      'apps/web/src/lib/proxy-entries.ts',
    ],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call our API through lib/api (api.<group>.<endpoint>, stream, ping).' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.name="fetch"]',
          message: 'Call our API through lib/api (api.<group>.<endpoint>, stream, ping).',
        },
        {
          selector:
            "CallExpression[typeArguments][callee.object.object.name='api'], CallExpression[typeArguments][callee.object.object.object.name='api']",
          message: 'The contract types every call of the API client: no type arguments.',
        },
        {
          selector: 'CallExpression[typeArguments][callee.name=/^(stream|accountRequest|apiGet)$/]',
          message: 'The contract types every call of the API client: no type arguments.',
        },
      ],
    },
  },
  {
    // Schemas in the web app use lib/zod.ts's z (eval-free parsing under the CSP); types may come from zod.
    // The contract's values come from @marquee/contract/values (no schema); the barrel is for types, and
    // for the schemas of the lazily loaded forms below (a barrel value elsewhere drags every schema module
    // and zod into the first view).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/zod.ts', ...FORM_SCHEMA_FILES],
    rules: {
      'no-restricted-imports': ['error', { paths: [ZOD_IMPORT, CONTRACT_BARREL_IMPORT] }],
    },
  },
  {
    files: FORM_SCHEMA_FILES,
    rules: { 'no-restricted-imports': ['error', { paths: [ZOD_IMPORT] }] },
  },
  {
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      // Every piece of user-facing text goes through i18n.
      'i18next/no-literal-string': [
        'error',
        { mode: 'jsx-only', 'jsx-attributes': { include: ['alt', 'aria-label', 'title', 'placeholder'] } },
      ],
    },
  },
);
