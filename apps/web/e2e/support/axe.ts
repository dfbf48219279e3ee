import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { networkQuiet } from './network.ts';

/** The impacts the issue's bar counts: a screen ships with none of these. */
const BLOCKING = new Set(['serious', 'critical']);

/**
 * Runs axe-core on what the page shows now, with every rule it has (WCAG 2.x A/AA and best practices),
 * and returns one line per serious or critical violation, naming the screen, the rule and the first
 * elements it found (so a failure says what to fix without a trace).
 */
export async function blockingViolations(page: Page, screen: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact && BLOCKING.has(v.impact))
    .map((v) => {
      const where = v.nodes
        .slice(0, 3)
        .map(
          (n) =>
            `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.split('\n')[1]?.trim()}]` : ''}`,
        )
        .join('; ');
      return `${screen}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.length} element(s): ${where}`;
    });
}

/** Opens a screen and checks it once its data has arrived (nothing left in flight). */
export async function visitAndCheck(page: Page, path: string, screen = path): Promise<string[]> {
  await page.goto(path);
  await networkQuiet(page);
  return blockingViolations(page, screen);
}
