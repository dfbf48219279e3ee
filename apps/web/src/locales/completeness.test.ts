import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../lib/languages.ts';
import { LAYOUT_NAMESPACES } from './namespaces.ts';
import {
  checkLanguage,
  details,
  flatten,
  problems,
  readCatalogs,
  table,
  type Leaf,
  type SameAsEnglish,
} from './completeness.ts';

const root = import.meta.dirname;
const catalogs = readCatalogs(root);
const english = catalogs.get('en') as Map<string, Leaf>;
const sameAsEnglish = JSON.parse(
  readFileSync(path.join(root, 'same-as-english.json'), 'utf8'),
) as SameAsEnglish;

describe('the UI catalogs', () => {
  it('every language the picker offers is complete', () => {
    const reports = LANGUAGES.map((l) => checkLanguage(l, english, catalogs.get(l), sameAsEnglish));
    const gaps = reports.filter((r) => problems(r) > 0);
    expect(
      gaps.map((r) => r.language),
      `${table(reports)}\n\n${gaps.map((r) => details(r)).join('\n')}`,
    ).toEqual([]);
  });

  it('holds no catalog for a language the picker does not offer', () => {
    expect([...catalogs.keys()].filter((l) => !(LANGUAGES as readonly string[]).includes(l))).toEqual([]);
  });

  it('lists every namespace in the types and the layout namespaces exist', async () => {
    const types = readFileSync(path.join(root, 'resources.ts'), 'utf8');
    const files = new Set([...english.keys()].map((k) => k.split('.')[0]));
    for (const ns of files) expect(types).toContain(`import type ${ns} from './en/${ns}.json';`);
    for (const ns of LAYOUT_NAMESPACES) expect(files).toContain(ns);
  });

  it('allows English text only for reviewed keys that exist', () => {
    const bases = new Set([...english.keys()].map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')));
    for (const [key, entry] of Object.entries(sameAsEnglish)) {
      expect([...bases], 'a key of the English catalog').toContain(key);
      expect(entry.reason.length, key).toBeGreaterThan(3);
      for (const l of entry.languages) expect(['*', ...LANGUAGES], key).toContain(l);
    }
  });
});

describe('the completeness check', () => {
  const en = flatten({
    ns: { title: 'Hello {{name}}', items_one: 'One item', items_other: '{{count}} items', brand: 'Marquee' },
  });
  const allow: SameAsEnglish = { 'ns.brand': { languages: ['*'], reason: 'brand name' } };

  it('passes a faithful translation', () => {
    const fr = flatten({
      ns: {
        title: 'Bonjour {{name}}',
        items_one: 'Un élément',
        items_many: '{{count}} d’éléments',
        items_other: '{{count}} éléments',
        brand: 'Marquee',
      },
    });
    expect(problems(checkLanguage('fr', en, fr, allow))).toBe(0);
  });

  it('reports missing keys, lost or invented placeholders, wrong plural forms and English left over', () => {
    const ru = flatten({
      ns: {
        title: 'Привет {{user}}',
        items_one: 'Один',
        items_other: '{{count}}',
        brand: 'Marquee',
        extra: 'x',
      },
    });
    const report = checkLanguage('ru', en, ru, allow);
    expect(report.extra).toEqual(['ns.extra']);
    expect(report.placeholders).toEqual(['ns.title: {{user}} not in English', 'ns.title: lacks {{name}}']);
    expect(report.plurals).toEqual(['ns.items has one/other, needs few/many/one/other']);
    const ja = flatten({ ns: { items_other: '{{count}} 件', brand: 'Marquee', title: 'Hello {{name}}' } });
    const jaReport = checkLanguage('ja', en, ja, {});
    expect(jaReport.untranslated).toEqual(['ns.title', 'ns.brand']);
    expect(jaReport.plurals).toEqual([]);
    expect(checkLanguage('de', en, undefined, allow).missing).toEqual(['ns.title', 'ns.items', 'ns.brand']);
  });
});
