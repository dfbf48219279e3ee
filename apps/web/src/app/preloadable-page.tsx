import { lazy, useState, type ComponentType } from 'react';

export type PreloadablePage<P extends object = object> = ComponentType<P> & {
  /** Starts loading the page's code; resolves when it is there. */
  preload(): Promise<void>;
};

/**
 * A page (or a large part of one) whose code loads on demand, like React.lazy, but can start loading
 * early and then renders without suspending. React.lazy always suspends on its first render, and React
 * keeps a Suspense fallback it showed for at least 300 ms: code that was already there would paint late.
 */
export function preloadablePage<M, P extends object = object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): PreloadablePage<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (module) => {
        loaded = pick(module);
      },
      (error: unknown) => {
        // A failed chunk (offline) may be asked for again later.
        pending = null;
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Page(props: P) {
    // Chosen once per mount: switching from the lazy to the loaded component later would remount it.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload });
}
