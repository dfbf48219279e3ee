import { QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { StrictMode, useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { themeFor } from '@marquee/contract';
import { ErrorBoundary } from '../features/errors/error-boundary.tsx';
import { DowntimeGate } from '../features/info/downtime-notice.tsx';
import { clock } from '../lib/clock.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { createRouter } from './router.tsx';

function useTheme() {
  useEffect(() => {
    const theme = themeFor(null, clock.now());
    if (theme) document.body.classList.add(`theme-${theme}`);
  }, []);
}

export function App({ i18n }: { i18n: i18n }) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);
  useTheme();
  return (
    <StrictMode>
      <ErrorBoundary>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <DowntimeGate>
              <RouterProvider router={router} />
            </DowntimeGate>
          </QueryClientProvider>
        </I18nextProvider>
      </ErrorBoundary>
    </StrictMode>
  );
}
