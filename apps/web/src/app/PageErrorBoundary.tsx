import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ErrorPage } from '../features/errors/ErrorPage.js';

/** A page's code that did not arrive: the connection dropped, or a new release replaced it. */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message)
  );
}

interface State {
  error: unknown;
}

class Boundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return isChunkLoadError(this.state.error) ? <ErrorPage status="network" /> : <ErrorPage status={500} />;
  }
}

/**
 * A page that throws shows the 500 page; a page whose code could not be downloaded says so and
 * offers to try again. Moving to another address starts afresh.
 */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary key={pathname}>{children}</Boundary>;
}
