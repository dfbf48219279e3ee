import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Resources } from '../locales/resources.ts';
import { pickPhrase } from './calendar.ts';

/** The catalog entries with `.default` and `.extra[]`. */
export type PhraseKey = 'home.search.placeholder' | `home.titles.${keyof Resources['home']['titles']}`;

/** A catalog entry with `.default` and `.extra[]`: the default, or 35 % of the time an extra; chosen once per mount. */
export function useRandomPhrase(key: PhraseKey, random: () => number = Math.random): string {
  const { t } = useTranslation(['home']);
  const [roll] = useState(() => [random(), random()] as const);
  const extras: unknown = t(`${key}.extra`, { returnObjects: true });
  const list = Array.isArray(extras) ? extras.filter((x): x is string => typeof x === 'string') : [];
  let i = 0;
  return pickPhrase(t(`${key}.default`), list, () => roll[i++ % 2] as number);
}
