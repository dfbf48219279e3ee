import { lazy, Suspense, useState, type ReactNode } from 'react';
import { clock } from '../../lib/clock.ts';
import { preloadNamespaces } from '../../lib/i18n.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

const DISMISSED_KEY = 'marquee.downtimeDismissed';

/** Whether now falls within the configured provider-downtime window. */
export function isInDowntime(window: { start: string; end: string } | null, now: Date): boolean {
  if (!window) return false;
  const t = now.getTime();
  return t >= Date.parse(window.start) && t <= Date.parse(window.end);
}

// Shown only while an operator's window is on: its code and words load then, not with every page.
const DowntimeNotice = lazy(() =>
  Promise.all([import('./downtime-page.tsx'), preloadNamespaces(['downtime'])]).then(([m]) => ({
    default: m.DowntimeNotice,
  })),
);

/**
 * The provider-downtime notice: shown instead of the app while the operator's window is active, once
 * per tab session (dismissed with a button).
 */
export function DowntimeGate({ children }: { children: ReactNode }) {
  const config = runtimeConfig();
  const [dismissed, setDismissed] = useState(
    () => sessionStorage.getItem(DISMISSED_KEY) === config.downtime?.start,
  );
  if (dismissed || !config.downtime || !isInDowntime(config.downtime, clock.now())) return children;
  const { start } = config.downtime;
  return (
    <Suspense fallback={null}>
      <DowntimeNotice
        window={config.downtime}
        onContinue={() => {
          sessionStorage.setItem(DISMISSED_KEY, start);
          setDismissed(true);
        }}
      />
    </Suspense>
  );
}
