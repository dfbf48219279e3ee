import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import type { RejectedChangesView as View } from './rejected-changes-view.tsx';
import { useRejectedChanges } from '../../lib/sync/rejected-changes.ts';

type ViewProps = ComponentProps<typeof View>;

// Shown only once the server has refused a change for good: its code loads then, not with every page.
// Code that cannot load (offline, never fetched) leaves the notice out until the next start, rather
// than taking the page down with it.
const RejectedChangesView = lazy((): Promise<{ default: ComponentType<ViewProps> }> =>
  import('./rejected-changes-view.tsx').then(
    (m) => ({ default: m.RejectedChangesView }),
    () => ({ default: () => null }),
  ),
);

/**
 * Changes the server refused for good (decision 070): a banner over the app until the user dismisses it
 * (`banner`, new refusals only), or the whole list with export on My List (`panel`); nothing without any.
 */
export function RejectedChanges({ variant = 'banner' }: { variant?: 'banner' | 'panel' }) {
  const all = useRejectedChanges((s) => s.rejected);
  const shown = variant === 'banner' ? all.filter((r) => !r.seen) : all;
  if (shown.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <RejectedChangesView variant={variant} shown={shown} />
    </Suspense>
  );
}
