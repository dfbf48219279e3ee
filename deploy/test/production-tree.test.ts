import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.ts';
import { Cleanup, cleanEnv, http, ROOT, run, startMarquee, type MarqueeProc } from './support.ts';

/*
 * The production tree — what the Dockerfile's runtime stage holds and what a plain-node install copies
 * to a server — assembled by scripts/prod-tree.mjs from the build output, with `npm ci --omit=dev` in
 * it (about two minutes: better-sqlite3 compiles), then run as an operator runs it:
 * `node apps/server/dist/main.js` with the tree as working directory.
 */

/** Build and test tools that must never reach production. */
const DEV_ONLY = [
  'vite',
  'tsx',
  'esbuild',
  'vitest',
  'playwright',
  '@playwright/test',
  'typescript',
  'lighthouse',
  'eslint',
  'prettier',
  'react',
  'react-dom',
  'hls.js',
  'tailwindcss',
];

/** Every package folder (one with a package.json) under a node_modules tree, nested ones included. */
function installedPackages(nodeModules: string): { name: string; dir: string }[] {
  const found: { name: string; dir: string }[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const scoped = entry.name.startsWith('@');
      const names = scoped
        ? readdirSync(path.join(dir, entry.name), { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => `${entry.name}/${e.name}`)
        : [entry.name];
      for (const name of names) {
        const pkgDir = path.join(dir, name);
        if (existsSync(path.join(pkgDir, 'package.json'))) found.push({ name, dir: pkgDir });
        visit(path.join(pkgDir, 'node_modules'));
      }
    }
  };
  visit(nodeModules);
  return found;
}

describe('the production tree (scripts/prod-tree.mjs)', () => {
  const cleanup = new Cleanup();
  const work = mkdtempSync(path.join(tmpdir(), 'marquee-prod-tree-'));
  const tree = path.join(work, 'tree');
  const dataDir = path.join(work, 'data');
  let server: MarqueeProc;

  beforeAll(async () => {
    cleanup.add('remove the temp folder', () => rmSync(work, { recursive: true, force: true }));
    const started = performance.now();
    const assembled = await run(process.execPath, ['scripts/prod-tree.mjs', tree], { cwd: ROOT });
    if (assembled.code !== 0)
      throw new Error(`scripts/prod-tree.mjs failed (${assembled.code}):\n${assembled.output}`);
    console.log(
      `production tree assembled and installed in ${Math.round((performance.now() - started) / 1000)} s`,
    );
    server = cleanup.proc(
      await startMarquee('marquee (production tree)', {
        cwd: tree,
        env: { DATA_DIR: dataDir, CAPTCHA_PROVIDER: 'none', JUSTWATCH_URL: 'http://127.0.0.1:9' },
      }),
    );
  }, 600_000);

  afterAll(async () => {
    await cleanup.run();
  }, 60_000);

  it('holds the build output and production dependencies only: no sources, tests or build tools', () => {
    for (const source of [
      'apps/server/src',
      'apps/server/test',
      'apps/web/src',
      'apps/web/e2e',
      'packages/contract/src',
      'packages/providers/src',
      'scripts/build.mjs',
      'bench',
      'docs',
      '.ci',
    ]) {
      expect(existsSync(path.join(tree, source)), source).toBe(false);
    }
    for (const file of ['main.js', 'admin.js', 'backup.js', 'migrate.js'])
      expect(existsSync(path.join(tree, 'apps/server/dist', file)), file).toBe(true);
    expect(existsSync(path.join(tree, 'apps/web/dist/index.html'))).toBe(true);
    expect(existsSync(path.join(tree, 'apps/server/assets/catalog'))).toBe(true);

    const packages = installedPackages(path.join(tree, 'node_modules'));
    expect(packages.map((p) => p.name)).toContain('fastify');
    expect(packages.map((p) => p.name)).toContain('better-sqlite3');
    expect(packages.filter((p) => DEV_ONLY.includes(p.name)).map((p) => path.relative(tree, p.dir))).toEqual(
      [],
    );
    // The workspaces' own folders hold no installed packages outside the root node_modules either.
    for (const workspace of ['apps/server', 'apps/web', 'packages/contract', 'packages/providers']) {
      const nested = installedPackages(path.join(tree, workspace, 'node_modules'));
      expect(
        nested.filter((p) => DEV_ONLY.includes(p.name)).map((p) => p.name),
        workspace,
      ).toEqual([]);
    }
  });

  it('runs with plain node: health, the page, an API call', async () => {
    const health = await http(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });

    const page = await http(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text()).toContain('<div id="root"');
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page.text())?.[1];
    const asset = await http(`${server.url}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');

    const movie = await http(`${server.url}/api/media/movie/603`);
    expect(movie.status).toBe(200);
    expect(movie.json()).toMatchObject({ id: '603', title: 'The Matrix', year: 1999 });
  });

  it("names, in a first page, built files of the page's code and catalogs (the build's first-view.json)", async () => {
    const page = await http(`${server.url}/discover`, {
      headers: { accept: 'text/html', 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    const named = [
      ...page.text().matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)">/g),
    ].map((m) => m[1]!);
    // The layout's catalogs and Discover's, in French.
    expect(named).toHaveLength(2);
    for (const file of named) {
      const asset = await http(`${server.url}${file}`);
      expect(asset.status, file).toBe(200);
      expect(asset.text(), file).toContain('Découvrir');
    }
  });

  it('answers a Range request for the sample media with 206 and the exact bytes', async () => {
    const file = readFileSync(path.join(tree, 'apps/server/assets/samples/mp4/sample-360p.mp4'));
    // Media URLs are signed (decision 071): the sample's folder comes from a scrape's answer.
    const scrape = await http(
      `${server.url}/scrape/source?type=movie&title=Forrest%20Gump&tmdbId=13&id=sample`,
    );
    const sampleFolder = /"embedId":"sample-file","url":"([^"]+)"/.exec(scrape.text())![1]!;
    const res = await http(`${sampleFolder}/mp4/sample-360p.mp4`, {
      headers: { range: 'bytes=0-1023' },
    });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-1023/${file.length}`);
    expect(res.body.equals(file.subarray(0, 1024))).toBe(true);
  });

  it('runs the operator commands there: npm run db:migrate, npm run backup, node dist/admin.js', async () => {
    const env = cleanEnv({ DATA_DIR: dataDir });
    const migrate = await run('npm', ['run', '--silent', 'db:migrate'], { cwd: tree, env });
    expect(migrate.code, migrate.output).toBe(0);
    expect(migrate.output).toContain(`SQLite ${path.join(dataDir, 'marquee.sqlite')}: up to date`);

    const file = path.join(work, 'backup.sqlite');
    const backup = await run('npm', ['run', '--silent', 'backup', '--', file], { cwd: tree, env });
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(
      new RegExp(`backup written to ${file.replaceAll('.', '\\.')} \\(.*integrity ok`),
    );
    expect(statSync(file).size).toBeGreaterThan(0);

    const admin = await run(process.execPath, ['apps/server/dist/admin.js', 'list'], { cwd: tree, env });
    expect(admin.code, admin.output).toBe(0);
    expect(admin.output).toMatch(/^no admins/);
  });
});

describe('the Dockerfile (no Docker engine here: its layout is checked against the tree)', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const stages = Object.fromEntries(
    dockerfile
      .split(/^FROM /m)
      .slice(1)
      .map((stage) => [/ AS (\w+)/.exec(stage.split('\n')[0]!)![1]!, stage]),
  );

  it('installs from every workspace manifest, builds, and assembles the tree with scripts/prod-tree.mjs', async () => {
    const { workspaceManifests } = (await import(path.join(ROOT, 'scripts/prod-tree.mjs'))) as {
      workspaceManifests(): string[];
    };
    expect(Object.keys(stages)).toEqual(['build', 'deps', 'runtime']);
    for (const manifest of workspaceManifests()) {
      const dir = path.dirname(manifest);
      expect(stages.build, manifest).toContain(`COPY ${manifest} ${dir}/`);
      expect(stages.deps, manifest).toContain(`COPY ${manifest} ${dir}/`);
    }
    expect(stages.build).toMatch(/RUN .*npm ci --no-audit --no-fund/);
    expect(stages.build).toContain('RUN npm run build && node scripts/prod-tree.mjs /prod --no-install');
    expect(stages.deps).toMatch(/RUN .*npm ci --omit=dev --no-audit --no-fund/);
  });

  it('builds and runs on Node 22 LTS, one Debian release for all three stages', () => {
    expect(dockerfile).toContain('\nARG NODE_IMAGE=node:22-bookworm\n');
    expect(dockerfile).toContain('\nARG NODE_RUNTIME_IMAGE=node:22-bookworm-slim\n');
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual([
      'FROM ${NODE_IMAGE} AS build',
      'FROM ${NODE_IMAGE} AS deps',
      'FROM ${NODE_RUNTIME_IMAGE} AS runtime',
    ]);
  });

  it('runs the tree as a non-root user with its data in /data, a health check and the plain-node command', () => {
    const runtime = stages.runtime!;
    expect(runtime).toContain('COPY --from=deps /app/ ./');
    expect(runtime).toContain('COPY --from=build /prod/ ./');
    expect(runtime).toMatch(/DATA_DIR=\/data/);
    expect(runtime).toContain('USER node');
    expect(runtime).toContain('VOLUME ["/data"]');
    expect(runtime).toContain('EXPOSE 8080');
    expect(runtime).toMatch(
      /HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "-e", "fetch\('http:\/\/127\.0\.0\.1:'[^\n]*\/healthz'/,
    );
    expect(runtime.trim().split('\n').at(-1)).toBe(
      `CMD ${JSON.stringify(['node', ...SERVER_NODE_FLAGS, 'apps/server/dist/main.js']).replaceAll(',', ', ')}`,
    );
    const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git', 'data', '.env']));
  });
});

describe('the production start (decision 090)', () => {
  it('gives node the same flags in npm start, npm run serve, the systemd unit and the README', () => {
    const flags = SERVER_NODE_FLAGS.join(' ');
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.start).toBe(`exec node ${flags} scripts/start.mjs`);
    expect(scripts.serve).toBe(`node ${flags} apps/server/dist/main.js`);
    const unit = readFileSync(path.join(ROOT, 'deploy/marquee.service'), 'utf8');
    expect(unit).toContain(`\nExecStart=/usr/bin/node ${flags} apps/server/dist/main.js\n`);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.match(/^node [^\n]*apps\/server\/dist\/main\.js/gm)).toEqual([
      `node ${flags} apps/server/dist/main.js`,
      `node ${flags} apps/server/dist/main.js`,
    ]);
  });
});
