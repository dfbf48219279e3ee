/**
 * `npm run i18n:check [-- <language>…]`: the completeness table of the UI catalogs (src/locales/<lang>/
 * <namespace>.json) against English, with the gaps of each language under it. Exits 1 on any gap.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LANGUAGES } from '../src/lib/languages.ts';
import {
  checkLanguage,
  details,
  problems,
  readCatalogs,
  table,
  type SameAsEnglish,
} from '../src/locales/completeness.ts';

const root = path.resolve(import.meta.dirname, '../src/locales');
const catalogs = readCatalogs(root);
const english = catalogs.get('en');
if (!english) throw new Error(`no English catalog in ${root}/en`);
const sameAsEnglish = JSON.parse(
  readFileSync(path.join(root, 'same-as-english.json'), 'utf8'),
) as SameAsEnglish;

const only = process.argv.slice(2);
const languages = only.length ? only : [...LANGUAGES];
const reports = languages.map((language) =>
  checkLanguage(language, english, catalogs.get(language), sameAsEnglish),
);
const strays = [...catalogs.keys()].filter((l) => !(LANGUAGES as readonly string[]).includes(l));

console.log(table(reports));
for (const report of reports) {
  const text = details(report);
  if (text) console.log(`\n${text}`);
}
if (strays.length) console.log(`\ncatalogs for languages the picker does not offer: ${strays.join(', ')}`);
const gaps = reports.filter((r) => problems(r) > 0).length;
console.log(`\n${reports.length - gaps} of ${reports.length} languages complete`);
process.exit(gaps || strays.length ? 1 : 0);
