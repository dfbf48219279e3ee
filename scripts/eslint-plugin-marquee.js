import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/*
 * Marquee's own lint rules (used by eslint.config.js).
 *
 * no-type-import-cycle: import-x/no-cycle skips type-only imports (`import type …`, or an import whose
 * every name is `type`), so it cannot see a cycle that one of them closes. This rule looks only at those
 * imports and follows every import of the modules they reach (values, types, lazy `import()`) back to
 * the importing file. With import-x/no-cycle, no cycle of any kind is left (docs/architecture.md, "Layers").
 */

const CODE = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** A `.js` specifier may name the `.ts` module (TypeScript's resolution). */
const SOURCE_OF = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The module a relative specifier names (as the bundler and TypeScript find it); null for packages. */
function resolveRelative(specifier, fromFile) {
  if (!/^\.\.?(\/|$)/.test(specifier)) return null;
  const base = path.resolve(path.dirname(fromFile), specifier.replace(/[?#].*$/, ''));
  const ext = path.extname(base);
  const candidates = [
    base,
    ...(SOURCE_OF[ext] ?? []).map((source) => base.slice(0, -ext.length) + source),
    ...CODE.map((e) => base + e),
    ...CODE.map((e) => path.join(base, `index${e}`)),
  ];
  return candidates.find((file) => CODE.includes(path.extname(file)) && isFile(file)) ?? null;
}

/** Every module a file imports (statically, as types, or lazily), by path; cached until the file changes. */
const importsCache = new Map();
function importsOf(file) {
  let mtime;
  try {
    mtime = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = importsCache.get(file);
  if (cached?.mtime === mtime) return cached.imports;
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const imports = [...new Set(importedFiles.map((f) => resolveRelative(f.fileName, file)).filter(Boolean))];
  importsCache.set(file, { mtime, imports });
  return imports;
}

/** The shortest chain of imports from `start` to `goal` ([start, …, goal]), or null. */
function importChain(start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i];
    for (const next of importsOf(file)) {
      if (next === goal) {
        const chain = [goal];
        for (let at = file; at !== null; at = cameFrom.get(at)) chain.unshift(at);
        return chain;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return null;
}

/** Whether import-x/no-cycle treats the declaration as type-only (and so skips it). */
function typeOnly(node) {
  const allNames = (kind) => node.specifiers.length > 0 && node.specifiers.every((s) => s[kind] === 'type');
  switch (node.type) {
    case 'ImportDeclaration':
      return node.importKind === 'type' || allNames('importKind');
    case 'ExportNamedDeclaration':
      return node.exportKind === 'type' || allNames('exportKind');
    case 'ExportAllDeclaration':
      return node.exportKind === 'type';
    default:
      return false;
  }
}

const noTypeImportCycle = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Forbid a type-only import that closes an import cycle (import-x/no-cycle skips them).',
    },
    schema: [],
    messages: { cycle: 'Dependency cycle through a type-only import: {{chain}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!path.isAbsolute(file)) return {};
    const check = (source) => {
      if (typeof source?.value !== 'string') return;
      const target = resolveRelative(source.value, file);
      if (!target || target === file) return;
      const chain = importChain(target, file);
      if (!chain) return;
      context.report({
        node: source,
        messageId: 'cycle',
        data: { chain: [file, ...chain].map((f) => path.relative(context.cwd, f)).join(' → ') },
      });
    };
    return {
      ImportDeclaration: (node) => typeOnly(node) && check(node.source),
      ExportNamedDeclaration: (node) => node.source && typeOnly(node) && check(node.source),
      ExportAllDeclaration: (node) => typeOnly(node) && check(node.source),
      // `import('./x.ts').T` in a type.
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
      TSImportEqualsDeclaration: (node) =>
        node.importKind === 'type' &&
        node.moduleReference.type === 'TSExternalModuleReference' &&
        check(node.moduleReference.expression),
    };
  },
};

export default {
  meta: { name: 'marquee' },
  rules: { 'no-type-import-cycle': noTypeImportCycle },
};
