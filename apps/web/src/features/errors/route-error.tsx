import { useRouteError } from 'react-router';
import { ErrorPage } from './error-page.tsx';

/** Errors thrown while rendering a route (lazy chunk failed to load, render crash). */
export function RouteError() {
  return <ErrorPage error={useRouteError()} />;
}
