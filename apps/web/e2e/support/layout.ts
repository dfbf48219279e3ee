import type { Page } from '@playwright/test';

/** Visible controls and elements with text of their own that cross the viewport's sides, outside scrolling rows. */
export function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const inScroller = (el: Element) => {
      for (let at = el.parentElement; at; at = at.parentElement) {
        const overflow = getComputedStyle(at).overflowX;
        if (overflow === 'auto' || overflow === 'scroll') return true;
      }
      return false;
    };
    // Visually hidden for screen readers only (sr-only: a 1 px box that clips what it holds).
    const srOnly = (el: Element) => {
      for (let at: Element | null = el; at; at = at.parentElement) {
        const style = getComputedStyle(at);
        if (style.overflow === 'hidden' && at.getBoundingClientRect().width <= 1) return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!own && !el.matches('button, a, input, select, [role="slider"]')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if ((box.left < -1 || box.right > width + 1) && !inScroller(el) && !srOnly(el)) {
        out.push(
          `${el.tagName.toLowerCase()} "${el.textContent?.trim().slice(0, 40)}" at ${Math.round(box.left)}–${Math.round(box.right)}`,
        );
      }
    }
    if (document.documentElement.scrollWidth > width + 1)
      out.push(`page ${document.documentElement.scrollWidth}px wide`);
    return out;
  });
}

/**
 * Visible buttons, links styled as buttons, menu items and form fields smaller than a 44 × 44 px touch
 * target (WCAG 2.5.5). Links inside running text are not targets of their own; sliders are measured by
 * their track, which is as wide as the control.
 */
export function smallTargets(page: Page, within = 'body'): Promise<string[]> {
  return page.evaluate((root) => {
    const out: string[] = [];
    const selector =
      'button, [role="button"], [role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"], select, input:not([type="range"]):not([type="hidden"]), a[class*="min-h-11"], nav a';
    for (const el of document.querySelector(root)?.querySelectorAll(selector) ?? []) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      if (el.closest('[inert], [aria-hidden="true"]')) continue;
      // A checkbox or radio is a target with its label.
      const target = el.matches('input[type="checkbox"], input[type="radio"]')
        ? (el.closest('label') ?? el)
        : el;
      const t = target.getBoundingClientRect();
      if (t.height < 43.5 || t.width < 43.5) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        out.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(t.width)}×${Math.round(t.height)}`);
      }
    }
    return out;
  }, within);
}
