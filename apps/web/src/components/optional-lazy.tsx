import {
  Component,
  lazy,
  Suspense,
  useEffect,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';

/**
 * A part of a page that loads its code on demand and that the page can do without (the title page's
 * Lists and "watched" line). If its code cannot be fetched — the viewer went offline before it came —
 * it shows nothing instead of taking the page down, and tries again when the browser is back online
 * (React.lazy keeps a failed load: each try is a new one).
 */
export function optionalLazy<C extends ComponentType<any>>(
  load: () => Promise<{ default: C }>,
): ComponentType<ComponentProps<C>> {
  // Typed loosely inside: the props the caller gives are the component's own (the signature says so).
  let Current = lazy(load) as unknown as ComponentType<ComponentProps<C>>;
  let tries = 0;
  const tryAgain = () => {
    Current = lazy(load) as unknown as ComponentType<ComponentProps<C>>;
    tries += 1;
  };
  function Optional(props: ComponentProps<C>) {
    const [, rerender] = useState(0);
    return (
      <Quiet
        key={tries}
        onRetry={() => {
          tryAgain();
          rerender(tries);
        }}
      >
        <Suspense fallback={null}>
          <Current {...props} />
        </Suspense>
      </Quiet>
    );
  }
  return Optional;
}

interface QuietProps {
  children: ReactNode;
  onRetry(): void;
}

/** Renders nothing once its children failed; asks for a retry when the browser is back online. */
class Quiet extends Component<QuietProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <RetryWhenOnline onRetry={this.props.onRetry} /> : this.props.children;
  }
}

function RetryWhenOnline({ onRetry }: { onRetry(): void }) {
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);
  return null;
}
