/**
 * Lists the functions of the source tree (tests and generated data aside) longer than a number of lines,
 * longest first, and counts them: how the "no function over 120 lines" rule of docs/architecture.md is
 * checked, and how a refactor's before and after are compared.
 *
 *   node --import tsx scripts/long-functions.ts            (over 80 lines)
 *   node --import tsx scripts/long-functions.ts 120        (over 120 lines; exits 1 when any is)
 *   LONG_FUNCTIONS_ROOT=/tmp/old node --import tsx scripts/long-functions.ts   (another checkout)
 *
 * A function is a declaration, a method, an arrow function or a function expression; its length is the
 * number of lines from its first to its last. A function inside a longer one is counted on its own too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(process.env.LONG_FUNCTIONS_ROOT ?? path.join(import.meta.dirname, '..'));
const LIMIT = Number(process.argv[2] ?? 80);
const FAIL_OVER = process.argv[2] ? LIMIT : Number.POSITIVE_INFINITY;
const DIRS = ['apps/server/src', 'apps/web/src', 'packages'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'locales', 'test', 'e2e']);
const isSource = (name: string) =>
  /\.(ts|tsx)$/.test(name) && !/\.(test|spec|d)\.tsx?$/.test(name) && !name.endsWith('.gen.ts');

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!SKIP_DIRS.has(name)) yield* files(full);
    } else if (isSource(name)) yield full;
  }
}

interface Found {
  file: string;
  name: string;
  lines: number;
  line: number;
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
    return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) {
    const outer = parent.parent;
    if (outer && ts.isVariableDeclaration(outer))
      return `${outer.name.getText()} (${parent.expression.getText()})`;
    return `(argument of ${parent.expression.getText().slice(0, 40)})`;
  }
  return '(anonymous)';
}

const found: Found[] = [];
for (const dir of DIRS)
  for (const file of files(path.join(ROOT, dir))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node)
      ) {
        const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > LIMIT)
          found.push({ file: path.relative(ROOT, file), name: nameOf(node), lines, line: start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`);
console.log(`\n${found.length} functions over ${LIMIT} lines`);
process.exitCode = found.some((f) => f.lines > FAIL_OVER) ? 1 : 0;
