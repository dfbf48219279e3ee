import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readCatalogs, type SameAsEnglish } from '../src/locales/completeness.ts';
import { MATRIX, player, startPlayback } from './support/player.ts';
import { PASSWORD, uniqueEmail } from './support/subscription.ts';

/*
 * Every main screen in French, Japanese and Arabic, reached the way a new viewer reaches them: the
 * browser's language on a first visit. On each, no text the viewer can see or hear (text, aria-label,
 * title, placeholder, alt) is one of the English catalog's texts, unless that text is on the reviewed
 * same-as-English list for the language or the language's own text is the same.
 */

const locales = path.resolve(import.meta.dirname, '../src/locales');
const catalogs = readCatalogs(locales);
const english = catalogs.get('en')!;
const sameAsEnglish = JSON.parse(
  readFileSync(path.join(locales, 'same-as-english.json'), 'utf8'),
) as SameAsEnglish;
const sub = `http://127.0.0.1:${process.env.E2E_SUB_PORT ?? 4182}`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The English texts that must not show in `language`, as whole-text patterns (placeholders match anything). */
function englishPatterns(language: string): { key: string; pattern: RegExp }[] {
  const local = catalogs.get(language)!;
  // A text the language itself uses somewhere ("DMCA" as a link) is not English left over.
  const localTexts = new Set([...local.values()].flat());
  const out: { key: string; pattern: RegExp }[] = [];
  for (const [key, value] of english) {
    const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
    const allowed = sameAsEnglish[base];
    if (allowed && (allowed.languages.includes('*') || allowed.languages.includes(language))) continue;
    for (const text of Array.isArray(value) ? value : [value]) {
      if (localTexts.has(text)) continue;
      const literal = text.replace(/\{\{[^}]+\}\}/g, '').trim();
      // Too short to tell apart from a title or a number ("OK", "4K").
      if (literal.length < 3) continue;
      const pattern = new RegExp(`^${escape(text).replace(/\\\{\\\{[^}]+\\\}\\\}/g, '.+')}$`, 's');
      out.push({ key, pattern });
    }
  }
  return out;
}

/** What the viewer can read or hear on the page: visible text nodes and the accessible attributes. */
function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const shown = (el: Element) => {
      const box = (el as HTMLElement).getBoundingClientRect?.();
      const style = getComputedStyle(el);
      return (
        !!box && box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && style.display !== 'none'
      );
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      const parent = node.parentElement;
      if (text && parent && !['SCRIPT', 'STYLE'].includes(parent.tagName) && shown(parent)) out.push(text);
    }
    for (const el of document.body.querySelectorAll('[aria-label],[title],[placeholder],[alt]')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(name)?.replace(/\s+/g, ' ').trim();
        if (value) out.push(value);
      }
    }
    out.push(document.title);
    return out;
  });
}

async function expectNoEnglish(page: Page, language: string, screen: string) {
  const patterns = englishPatterns(language);
  const texts = await visibleTexts(page);
  const found = texts.flatMap((text) =>
    patterns.filter((p) => p.pattern.test(text)).map((p) => `"${text}" (${p.key})`),
  );
  expect(found, `English on the ${screen} screen in ${language}`).toEqual([]);
}

const LANGUAGES = [
  { language: 'fr', locale: 'fr-FR', dir: 'ltr' },
  { language: 'ja', locale: 'ja-JP', dir: 'ltr' },
  { language: 'ar', locale: 'ar-EG', dir: 'rtl' },
] as const;

for (const { language, locale, dir } of LANGUAGES) {
  test.describe(`in ${language}`, () => {
    test.use({ locale });
    const t = (key: string) => {
      const value = catalogs.get(language)!.get(key);
      if (typeof value !== 'string') throw new Error(`no ${language} text for ${key}`);
      return value;
    };

    test('home, search, discover, a title, settings, sign-in and registration', async ({ page }) => {
      test.setTimeout(60_000);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('html')).toHaveAttribute('dir', dir);
      await expect(page.getByRole('link', { name: t('navigation.discover') }).first()).toBeVisible();
      await expectNoEnglish(page, language, 'home');

      await page.goto('/browse/matrix');
      await expect(page.getByTestId('media-card').first()).toBeVisible();
      await expect(page.getByRole('heading', { name: t('home.search.sectionTitle') })).toBeAttached();
      await expectNoEnglish(page, language, 'search');

      await page.goto('/discover');
      await expect(page.getByTestId('media-card').first()).toBeVisible();
      await expectNoEnglish(page, language, 'discover');

      await page.goto('/media/tmdb-tv-1399-game-of-thrones');
      await expect(page.getByTestId('media-page')).toBeVisible();
      await expect(page.getByTestId('episode-list')).toBeVisible();
      await expectNoEnglish(page, language, 'title');

      await page.goto('/settings');
      await expect(page.getByRole('heading', { level: 1, name: t('settings.title') })).toBeVisible();
      await expectNoEnglish(page, language, 'settings');

      await page.goto('/login');
      await expect(page.getByRole('button', { name: t('auth.login.submit'), exact: true })).toBeVisible();
      await expectNoEnglish(page, language, 'login');

      await page.goto('/register');
      await expect(page.getByRole('button', { name: t('auth.trust.yes') })).toBeVisible();
      await expectNoEnglish(page, language, 'register');
    });

    test('the player and its controls', async ({ page }) => {
      await page.goto(MATRIX);
      await startPlayback(page);
      await page.mouse.move(200, 200);
      await page.mouse.move(220, 220);
      await expect(page.getByTestId('open-settings')).toBeVisible();
      await expect(player(page).getByRole('button', { name: t('player.controls.pause') })).toBeVisible();
      await expectNoEnglish(page, language, 'player');
      await page.getByTestId('open-settings').click();
      await expect(page.getByTestId('settings-menu')).toBeVisible();
      await expectNoEnglish(page, language, 'player settings');
    });

    test('the subscription site: landing, email sign-in and membership', async ({ page }) => {
      await page.goto(`${sub}/`);
      await expect(page.getByTestId('landing')).toBeVisible();
      await expect(page.getByTestId('plan-price').first()).toBeVisible();
      await expectNoEnglish(page, language, 'landing');

      const email = uniqueEmail(`lang-${language}`);
      const made = await page.request.post(`${sub}/customers`, {
        data: { fullname: 'Test Viewer', email, password: PASSWORD },
      });
      expect(made.status()).toBe(200);
      await page.goto(`${sub}/login`);
      await expect(page.getByRole('button', { name: t('customer.login.submit'), exact: true })).toBeVisible();
      await expectNoEnglish(page, language, 'email sign-in');
      await page.locator('#login-email').fill(email);
      await page.locator('#login-password').fill(PASSWORD);
      await page.getByRole('button', { name: t('customer.login.submit'), exact: true }).click();
      await page.getByTestId('profile-tile').first().click();
      await page.goto(`${sub}/subscription`);
      await expect(page.getByTestId('plan-option').first()).toBeVisible();
      await expectNoEnglish(page, language, 'subscription');
    });
  });
}

test('switching the language in settings takes effect without a reload', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const marker = await page.evaluate(
    () => ((window as unknown as { marker: number }).marker = Math.random()),
  );
  await page.getByTestId('language-select').selectOption('fr');
  await page.getByTestId('save-bar').getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(
    page.getByRole('link', { name: catalogs.get('fr')!.get('navigation.discover') as string }).first(),
  ).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(marker);
  await page.getByTestId('language-select').selectOption('ar');
  await page
    .getByTestId('save-bar')
    .getByRole('button', { name: catalogs.get('fr')!.get('settings.save') as string })
    .click();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(
    page.getByRole('link', { name: catalogs.get('ar')!.get('navigation.discover') as string }).first(),
  ).toBeVisible();
});
