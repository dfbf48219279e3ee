import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNearViewport } from './use-near-viewport.ts';

/** A stand-in IntersectionObserver the test drives by hand. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  readonly targets: Element[] = [];
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeObserver.instances.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  disconnect() {
    this.disconnected = true;
  }
  fire(isIntersecting: boolean) {
    act(() =>
      this.callback(
        this.targets.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
        this as unknown as IntersectionObserver,
      ),
    );
  }
}

function Row({ initiallyNear = false }: { initiallyNear?: boolean }) {
  const ref = useRef<HTMLElement>(null);
  const [near, reveal] = useNearViewport(ref, { initiallyNear });
  return (
    <section ref={ref} data-testid="row" data-near={near} onFocus={reveal}>
      <button type="button">x</button>
    </section>
  );
}

describe('useNearViewport (rows render as they approach the viewport)', () => {
  beforeEach(() => {
    FakeObserver.instances = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is false until the element comes within the margin, then stays true and stops observing', () => {
    render(<Row />);
    const observer = FakeObserver.instances.at(-1)!;
    expect(observer.options.rootMargin).toBe('50% 0px');
    expect(screen.getByTestId('row').dataset.near).toBe('false');
    observer.fire(false);
    expect(screen.getByTestId('row').dataset.near).toBe('false');
    observer.fire(true);
    expect(screen.getByTestId('row').dataset.near).toBe('true');
    expect(observer.disconnected).toBe(true);
  });

  it('reveal (keyboard focus reaching the row) makes it near at once', () => {
    render(<Row />);
    act(() => screen.getByRole('button').focus());
    expect(screen.getByTestId('row').dataset.near).toBe('true');
  });

  it('what is always on the first screen is near from the start, without an observer', () => {
    render(<Row initiallyNear />);
    expect(screen.getByTestId('row').dataset.near).toBe('true');
    expect(FakeObserver.instances).toHaveLength(0);
  });

  it('without IntersectionObserver everything is near', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Row />);
    expect(screen.getByTestId('row').dataset.near).toBe('true');
  });
});
