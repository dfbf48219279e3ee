import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorPage } from './error-page.tsx';

interface State {
  error: unknown;
}

/** Catches render errors anywhere below and shows the error page instead of a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Render error', error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ErrorPage error={this.state.error} />;
    return this.props.children;
  }
}
