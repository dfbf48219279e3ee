import { useCallback, useEffect, useState, type RefObject } from 'react';

/** How far ahead of the viewport lazily shown content starts: half a screen above and below. */
export const NEAR_VIEWPORT_MARGIN = '50% 0px';

/**
 * Whether the element has come within `rootMargin` of the viewport; once it has, it stays so (content
 * shown is not taken away again). `reveal` marks it near at once, e.g. when keyboard focus enters it.
 * `initiallyNear` is for what is always on the first screen (no need to wait for the observer's first
 * answer, a frame or two later). Without IntersectionObserver everything counts as near.
 */
export function useNearViewport(
  ref: RefObject<Element | null>,
  {
    rootMargin = NEAR_VIEWPORT_MARGIN,
    initiallyNear = false,
  }: { rootMargin?: string; initiallyNear?: boolean } = {},
): [near: boolean, reveal: () => void] {
  const [near, setNear] = useState(() => initiallyNear || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        setNear(true);
      },
      { rootMargin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, rootMargin, near]);
  const reveal = useCallback(() => setNear(true), []);
  return [near, reveal];
}
