/** Time-of-day and calendar rules of the web app (greeting, phrases, theme, online ping, copy confirmation). */

export type Greeting = 'night' | 'morning' | 'day' | '420' | '69';

/** Night before 5, morning before 12, day before 19, otherwise night; 20 April and 9 June are special. */
export function greetingFor(date: Date): Greeting {
  const month = date.getMonth() + 1;
  const day = date.getDate();
  if (month === 4 && day === 20) return '420';
  if (month === 6 && day === 9) return '69';
  const hour = date.getHours();
  if (hour < 5) return 'night';
  if (hour < 12) return 'morning';
  if (hour < 19) return 'day';
  return 'night';
}

export const ALTERNATE_PHRASE_CHANCE = 0.35;

/** With a 35 % chance an alternate phrase replaces the default one; the choice is made once per view. */
export function pickPhrase(defaultPhrase: string, extras: readonly string[], random: () => number): string {
  if (extras.length === 0 || random() >= ALTERNATE_PHRASE_CHANCE) return defaultPhrase;
  return extras[Math.floor(random() * extras.length)] ?? defaultPhrase;
}

export type ThemeName = 'default' | 'teal' | 'blue' | 'red' | 'gray';

/** The default theme is none, except teal on 20 April. A chosen theme always wins. */
export function themeFor(chosen: ThemeName | null, date: Date): ThemeName | null {
  if (chosen) return chosen;
  return date.getMonth() === 3 && date.getDate() === 20 ? 'teal' : null;
}

export const PING_INTERVAL_MS = 5_000;
export const PING_ONLINE_EVERY = 10;

/** Whether a ping request goes out on this tick: every tick while offline, every 10th while online. */
export function shouldPing(tick: number, isOnline: boolean): boolean {
  return !isOnline || tick % PING_ONLINE_EVERY === 0;
}

export const COPY_CONFIRMATION_MS = 2_000;
