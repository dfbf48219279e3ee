#!/usr/bin/env node
// npm run build: builds the web app (Vite) and the server (esbuild bundle run by plain `node`), each
// only when its inputs changed since its last build. `--force` rebuilds both.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inputsHash, isCurrent, ROOT, stampPath, TARGETS } from './build-state.mjs';

const force = process.argv.includes('--force');
const require = createRequire(import.meta.url);

function buildWeb() {
  const vite = path.join(
    path.dirname(require.resolve('vite/package.json', { paths: [path.join(ROOT, 'apps/web')] })),
    'bin/vite.js',
  );
  const result = spawnSync(process.execPath, [vite, 'build'], {
    cwd: path.join(ROOT, 'apps/web'),
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('web build failed');
}

/**
 * Bundled in: the workspace packages, Kysely — pure ESM of ~400 small modules, of which the server
 * uses a fraction; bundled and tree-shaken it costs ~1.6 MB less heap than loaded module by module —
 * and zod with its Fastify type provider (one copy of zod for both; V8 keeps every module's source in
 * memory, and zod's commented sources are ~1 MB more than its minified bundle: idle RSS 78 vs 81 MiB).
 * Everything else from node_modules stays an import of the installed package.
 */
const BUNDLED_PACKAGES = ['kysely', 'zod', 'fastify-type-provider-zod'];
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.split('/', args.path.startsWith('@') ? 2 : 1).join('/');
      return name.startsWith('@marquee/') || BUNDLED_PACKAGES.includes(name)
        ? undefined
        : { path: args.path, external: true };
    });
  },
};

async function buildServer() {
  const esbuild = await import('esbuild');
  const out = path.join(ROOT, TARGETS.server.out);
  rmSync(out, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    // Flat output: every file sits one folder below the server package, as src/paths.ts expects.
    entryPoints: {
      main: 'apps/server/src/main.ts',
      admin: 'apps/server/src/cli/admin.ts',
      backup: 'apps/server/src/cli/backup.ts',
      migrate: 'apps/server/src/cli/migrate.ts',
    },
    outdir: out,
    bundle: true,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Minified source is less for V8 to keep in memory; names stay (logs show real class names) and
    // the source map gives readable stack traces with NODE_OPTIONS=--enable-source-maps.
    minify: true,
    charset: 'ascii',
    keepNames: true,
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  assertOneByteSources(out);
}

/**
 * V8 keeps each module's source text in memory, and a single character above U+00FF makes the whole
 * file a two-byte string: one `–` in a regular expression made a 680 KB chunk cost 1.3 MB. esbuild
 * escapes such characters in strings but not in regular expression literals, so the build refuses them.
 */
function assertOneByteSources(dir) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const wide = /[\u0100-\uffff]/.exec(text);
    if (wide) {
      const context = text.slice(Math.max(0, wide.index - 60), wide.index + 20);
      throw new Error(
        `${file} holds "${wide[0]}" (U+${wide[0].codePointAt(0).toString(16).toUpperCase()}), which makes V8 keep the file as a two-byte string; write it as a \\u escape in the source:\n  ${context}`,
      );
    }
  }
}

const builders = { web: buildWeb, server: buildServer };
for (const [name, target] of Object.entries(TARGETS)) {
  if (!force && isCurrent(target)) {
    console.log(`${name}: up to date (${target.out})`);
    continue;
  }
  const hash = inputsHash(target);
  const started = performance.now();
  console.log(`${name}: building ${target.out}`);
  try {
    await builders[name]();
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  writeFileSync(stampPath(target), `${hash}\n`);
  console.log(`${name}: built in ${Math.round(performance.now() - started)} ms`);
}
