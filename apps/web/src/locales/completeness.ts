import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The catalogs' completeness rules, shared by the CLI table (`npm run i18n:check`) and the unit test:
 * every language has every key of English in every namespace, with the same placeholders and tags, the
 * plural forms its CLDR rules need, and no value left in English unless the key is on the reviewed list.
 */

export type Leaf = string | string[];
type Tree = { [key: string]: Tree | Leaf };

export interface LanguageReport {
  language: string;
  keys: number;
  missing: string[];
  extra: string[];
  placeholders: string[];
  plurals: string[];
  untranslated: string[];
  empty: string[];
}

/** Keys allowed to read as in English, each with the languages it holds for ("*" for all) and why. */
export type SameAsEnglish = Record<string, { languages: string[]; reason: string }>;

const PLURAL = /_(zero|one|two|few|many|other)$/;

export function flatten(tree: Tree, prefix = ''): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  for (const [key, value] of Object.entries(tree)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || Array.isArray(value)) out.set(at, value);
    else for (const [k, v] of flatten(value, at)) out.set(k, v);
  }
  return out;
}

/** `{{name}}` and `{{name, format}}` placeholders and `$t(...)` nestings, by name. */
export function placeholders(text: string): string[] {
  const names = [...text.matchAll(/\{\{\s*([^,}\s]+)[^}]*\}\}/g)].map((m) => `{{${m[1]}}}`);
  const nested = [...text.matchAll(/\$t\(([^)]*)\)/g)].map((m) => `$t(${m[1]})`);
  return [...names, ...nested].sort();
}

/** `<0>`, `</0>`, `<strong>`, `<br/>` … as used by `<Trans>`. */
export function tags(text: string): string[] {
  return [...text.matchAll(/<\/?[a-zA-Z0-9]+\s*\/?>/g)].map((m) => m[0].replace(/\s/g, '')).sort();
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const texts = (leaf: Leaf) => (Array.isArray(leaf) ? leaf : [leaf]);

export function pluralCategories(language: string): string[] {
  return [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort();
}

/** Groups `key_one`/`key_other` under `key`; other keys stand alone. */
function byBase(keys: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const key of keys) {
    const base = key.replace(PLURAL, '');
    const forms = out.get(base) ?? [];
    forms.push(PLURAL.test(key) ? (PLURAL.exec(key)?.[1] as string) : '');
    out.set(base, forms);
  }
  return out;
}

export function readCatalogs(root: string): Map<string, Map<string, Leaf>> {
  const out = new Map<string, Map<string, Leaf>>();
  for (const language of readdirSync(root, { withFileTypes: true })) {
    if (!language.isDirectory()) continue;
    const flat = new Map<string, Leaf>();
    for (const file of readdirSync(path.join(root, language.name))) {
      if (!file.endsWith('.json')) continue;
      const ns = file.slice(0, -'.json'.length);
      const tree = JSON.parse(readFileSync(path.join(root, language.name, file), 'utf8')) as Tree;
      for (const [key, value] of flatten(tree, ns)) flat.set(key, value);
    }
    out.set(language.name, flat);
  }
  return out;
}

export function checkLanguage(
  language: string,
  english: Map<string, Leaf>,
  catalog: Map<string, Leaf> | undefined,
  sameAsEnglish: SameAsEnglish,
): LanguageReport {
  const report: LanguageReport = {
    language,
    keys: catalog?.size ?? 0,
    missing: [],
    extra: [],
    placeholders: [],
    plurals: [],
    untranslated: [],
    empty: [],
  };
  const have = catalog ?? new Map<string, Leaf>();
  const englishBases = byBase(english.keys());
  const haveBases = byBase(have.keys());
  const needed = pluralCategories(language);

  for (const [base, forms] of englishBases) {
    const plural = forms.some(Boolean);
    const got = haveBases.get(base);
    if (!got) {
      report.missing.push(base);
      continue;
    }
    if (plural) {
      const categories = [...got].sort();
      if (!same(categories, needed))
        report.plurals.push(`${base} has ${categories.join('/')}, needs ${needed.join('/')}`);
    } else if (got.some(Boolean)) {
      report.plurals.push(`${base} is plural here but not in English`);
      continue;
    }
    const englishOther = english.get(plural ? `${base}_other` : base) as Leaf;
    const allowed = new Set(texts(englishOther).flatMap(placeholders));
    for (const [, form] of plural ? got.map((f) => [f, `${base}_${f}`] as const) : [['', base] as const]) {
      const value = have.get(form) as Leaf;
      if (Array.isArray(value) !== Array.isArray(englishOther)) {
        report.placeholders.push(`${form}: ${Array.isArray(englishOther) ? 'a list' : 'a text'} in English`);
        continue;
      }
      for (const text of texts(value)) {
        if (!text.trim()) report.empty.push(form);
        const used = placeholders(text);
        // A plural form may leave out {{count}} ("une fois"); it may not bring its own placeholders.
        const unknown = used.filter((p) => !allowed.has(p));
        if (unknown.length) report.placeholders.push(`${form}: ${unknown.join(' ')} not in English`);
        const englishTags = tags(texts(englishOther)[0] ?? '');
        if (!Array.isArray(value) && !same(tags(text), englishTags))
          report.placeholders.push(`${form}: tags differ`);
      }
      // The `other` form (or the one text) says everything English says.
      if (!Array.isArray(value) && (!plural || form.endsWith('_other'))) {
        const lacking = [...allowed].filter((p) => !placeholders(value).includes(p));
        if (lacking.length) report.placeholders.push(`${form}: lacks ${lacking.join(' ')}`);
      }
    }
    if (language !== 'en') {
      const exempt = sameAsEnglish[base];
      const identical = (plural ? got.map((f) => `${base}_${f}`) : [base]).some((form) => {
        const englishForm = english.get(form) ?? english.get(`${base}_other`);
        return englishForm !== undefined && JSON.stringify(have.get(form)) === JSON.stringify(englishForm);
      });
      if (identical && !(exempt && (exempt.languages.includes('*') || exempt.languages.includes(language)))) {
        report.untranslated.push(base);
      }
    }
  }
  for (const base of haveBases.keys()) if (!englishBases.has(base)) report.extra.push(base);
  return report;
}

export const problems = (r: LanguageReport) =>
  r.missing.length +
  r.extra.length +
  r.placeholders.length +
  r.plurals.length +
  r.untranslated.length +
  r.empty.length;

/** The per-language table the CLI prints (and the test shows when it fails). */
export function table(reports: LanguageReport[]): string {
  const head = [
    'language',
    'keys',
    'missing',
    'extra',
    'placeholders',
    'plurals',
    'untranslated',
    'empty',
    'status',
  ];
  const rows = reports.map((r) => [
    r.language,
    String(r.keys),
    String(r.missing.length),
    String(r.extra.length),
    String(r.placeholders.length),
    String(r.plurals.length),
    String(r.untranslated.length),
    String(r.empty.length),
    problems(r) ? 'GAP' : 'ok',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function details(r: LanguageReport, limit = 20): string {
  const parts: string[] = [];
  const add = (label: string, list: string[]) => {
    if (list.length)
      parts.push(
        `  ${label}: ${list.slice(0, limit).join(', ')}${list.length > limit ? ` … (+${list.length - limit})` : ''}`,
      );
  };
  add('missing', r.missing);
  add('extra', r.extra);
  add('placeholders', r.placeholders);
  add('plurals', r.plurals);
  add('untranslated', r.untranslated);
  add('empty', r.empty);
  return parts.length ? `${r.language}\n${parts.join('\n')}` : '';
}
