import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

/*
 * .env.example is what operators copy (compose's .env, systemd's EnvironmentFile): it must name every
 * setting the server reads, exactly once, with the server's real defaults, and load as it is.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const example = readFileSync(path.join(root, '.env.example'), 'utf8');
/** Read by compose.yaml, not by the server. */
const COMPOSE_ONLY = ['POSTGRES_PASSWORD', 'HTTP_PORT', 'MARQUEE_IMAGE'];

/** The settings config.ts validates: the keys of its EnvSchema object. */
function serverSettings(): string[] {
  const source = readFileSync(path.join(root, 'apps/server/src/config.ts'), 'utf8');
  const start = source.indexOf('const EnvSchema = z.object({');
  const body = source.slice(start, source.indexOf('\n});', start));
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

const lines = example
  .split('\n')
  .map((line) => /^(#?)([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
  .filter((m) => m !== null)
  .map(([, hash, name, value]) => ({ active: hash === '', name: name!, value: value! }));

describe('.env.example', () => {
  it('lists every setting of the server exactly once (and the compose file’s own)', () => {
    const settings = serverSettings();
    expect(settings.length).toBeGreaterThan(40);
    const names = lines.map((l) => l.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names.filter((n) => !COMPOSE_ONLY.includes(n)).sort()).toEqual([...settings].sort());
  });

  it('explains every setting in the line above it and states its default', () => {
    const all = example.split('\n');
    for (const { name } of lines) {
      let i = all.findIndex((l) => l.startsWith(`${name}=`) || l.startsWith(`#${name}=`));
      // Settings that belong together share one explanation (CAPTCHA_SITE_KEY / CAPTCHA_SECRET).
      while (/^#[A-Z][A-Z0-9_]*=/.test(all[i - 1]!)) i -= 1;
      expect(all[i - 1], name).toMatch(/^# .+(Default|Defaults): .+|compose\.yaml only$/);
    }
  });

  it('loads as it is, and every value it shows is the server’s default', () => {
    const active = Object.fromEntries(lines.filter((l) => l.active).map((l) => [l.name, l.value]));
    expect(() => loadConfig(active)).not.toThrow();
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    for (const { name, value } of lines) {
      if (value === '' || COMPOSE_ONLY.includes(name)) continue;
      const config = loadConfig({ [name]: value }) as unknown as Record<string, unknown>;
      expect(config[name], name).toEqual(defaults[name]);
    }
  });
});
