import { themeFor, type ThemeName } from './calendar.ts';
import { clock } from './clock.ts';

const CLASSES = ['theme-teal', 'theme-blue', 'theme-red', 'theme-gray'];

/** Puts the theme's class on <body>: the chosen one, or the default (teal on 20 April). */
export function applyTheme(chosen: ThemeName | null, target: HTMLElement = document.body): void {
  const theme = themeFor(chosen, clock.now());
  target.classList.remove(...CLASSES);
  if (theme && theme !== 'default') target.classList.add(`theme-${theme}`);
}
