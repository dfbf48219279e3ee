import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickPhrase } from './calendar.ts';

/** A catalog entry with `.default` and `.extra[]`: the default, or 35 % of the time an extra; chosen once per mount. */
export function useRandomPhrase(key: string, random: () => number = Math.random): string {
  const { t } = useTranslation();
  const [roll] = useState(() => [random(), random()] as const);
  const extras = t(`${key}.extra`, { returnObjects: true, defaultValue: [] }) as unknown;
  const list = Array.isArray(extras) ? (extras as string[]) : [];
  let i = 0;
  return pickPhrase(t(`${key}.default`), list, () => roll[i++ % 2] as number);
}
