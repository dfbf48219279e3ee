import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** The first view of `/` may send at most this much JavaScript over the wire (brotli, as browsers get it). */
export const FIRST_VIEW_JS_BUDGET = 150 * 1024;

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|map|vtt|xml|wasm)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;
/**
 * Above this brotli's best quality costs seconds a file at every build (the ASS renderer's two 2 MB
 * WebAssembly files: 8 s each at 11, 0.3 s at 9, for 0.81 MB instead of 0.71 MB on the wire, once).
 */
const LARGE_BYTES = 1024 * 1024;

export const brotli = (body: Buffer) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: body.length > LARGE_BYTES ? 9 : 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });

/** Every JS file `/` loads before any code runs: the entry script and the chunks it modulepreloads. */
export function firstViewScripts(html: string): string[] {
  const scripts = [...html.matchAll(/<script[^>]*\bsrc="(\/assets\/[^"]+\.js)"/g)];
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="(\/assets\/[^"]+\.js)"/g)];
  return [...new Set([...scripts, ...preloads].map((m) => m[1] as string))];
}

/** A language's first-view catalog chunk (catalogs-plugin.ts). */
const LANGUAGE_CHUNK = /^\0virtual:catalogs\/(.+)$/;

/**
 * Writes `.br` and `.gz` beside every compressible file of the build (the server sends them as they
 * are, so nothing is compressed per request), then fails the build when the first view's JavaScript
 * is over budget on the wire in any language: the scripts `/` loads plus that language's catalog chunk
 * (the layout's namespaces, loaded before the first render).
 */
export function delivery(): Plugin {
  let outDir = '';
  /** language → its first-view catalog chunk */
  const catalogs = new Map<string, string>();
  return {
    name: 'marquee-delivery',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        const match =
          chunk.type === 'chunk' && chunk.facadeModuleId ? LANGUAGE_CHUNK.exec(chunk.facadeModuleId) : null;
        if (match) catalogs.set(match[1] as string, chunk.fileName);
      }
    },
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true }).map((f) => path.join(outDir, String(f)));
      for (const file of files) {
        if (!COMPRESSIBLE.test(file) || !statSync(file).isFile()) continue;
        const body = readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        writeFileSync(`${file}.br`, brotli(body));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
      const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
      const rows = firstViewScripts(html).map((src) => {
        const body = readFileSync(path.join(outDir, src));
        return { src, raw: body.length, wire: brotli(body).length };
      });
      const code = rows.reduce((sum, r) => sum + r.wire, 0);
      const perLanguage = [...catalogs].map(([language, file]) => ({
        language,
        wire: brotli(readFileSync(path.join(outDir, file))).length,
      }));
      const heaviest = perLanguage.reduce((a, b) => (b.wire > a.wire ? b : a), { language: 'none', wire: 0 });
      const english = perLanguage.find((l) => l.language === 'en')?.wire ?? 0;
      const wire = code + heaviest.wire;
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
      const message =
        `first view of / sends ${kb(wire)} of JavaScript in the heaviest language (${heaviest.language}: ` +
        `code ${kb(code)} + catalogs ${kb(heaviest.wire)}; English ${kb(code + english)}; ` +
        `brotli; budget ${kb(FIRST_VIEW_JS_BUDGET)})`;
      if (wire > FIRST_VIEW_JS_BUDGET) {
        const detail = rows.map((r) => `  ${r.src}: ${kb(r.wire)}`).join('\n');
        this.error(`${message}: over budget\n${detail}`);
      }
      this.info(message);
    },
  };
}
