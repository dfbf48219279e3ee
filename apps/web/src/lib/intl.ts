/**
 * Intl formatters, made once per language and options. Making one loads and parses locale data: tens of
 * milliseconds on a phone for the first of a kind, which a page rendering a few of them per title
 * paid on every render (a title page's header was a long task).
 */
const cache = new Map<string, unknown>();

function cached<T>(
  kind: string,
  locales: string | readonly string[],
  options: object | undefined,
  make: () => T,
): T {
  const key = `${kind}\u0000${String(locales)}\u0000${options ? JSON.stringify(options) : ''}`;
  let made = cache.get(key) as T | undefined;
  if (made === undefined) {
    made = make();
    cache.set(key, made);
  }
  return made;
}

export const numberFormat = (locale: string, options?: Intl.NumberFormatOptions) =>
  cached('number', locale, options, () => new Intl.NumberFormat(locale, options));

export const listFormat = (locale: string, options?: Intl.ListFormatOptions) =>
  cached('list', locale, options, () => new Intl.ListFormat(locale, options));

export const dateTimeFormat = (locale: string, options?: Intl.DateTimeFormatOptions) =>
  cached('date', locale, options, () => new Intl.DateTimeFormat(locale, options));

export const displayNames = (locales: readonly string[], options: Intl.DisplayNamesOptions) =>
  cached('names', locales, options, () => new Intl.DisplayNames([...locales], options));

/**
 * The calendar day of `date` where the viewer is (`timeZone`: IANA, default the device's) as
 * `YYYY-MM-DD`: a diary's day, a file name's date, a date input's value.
 */
export function calendarDay(date: Date | number, timeZone?: string): string {
  const parts = dateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}
