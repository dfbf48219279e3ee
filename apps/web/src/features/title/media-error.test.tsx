import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api/index.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { MediaError } from './media-error.tsx';

async function show(error: unknown) {
  const i18n = await initI18n('en', NAMESPACES);
  const view = render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <MediaError kind="failed" error={error} onRetry={() => {}} />
      </MemoryRouter>
    </I18nextProvider>,
  );
  const text = view.getByRole('alert').textContent ?? '';
  view.unmount();
  return text;
}

afterEach(() => vi.unstubAllGlobals());

describe('why metadata failed, in words the viewer can act on', () => {
  it("tells a refused key (the operator's to fix) from a busy service and from the service being down", async () => {
    expect(await show(new ApiError(502, 'metadata_auth_failed', 'x'))).toMatch(/key/);
    expect(await show(new ApiError(502, 'metadata_auth_failed', 'x'))).not.toMatch(/down or blocked/);
  });

  it('says so when the service asks this site to slow down', async () => {
    expect(await show(new ApiError(503, 'metadata_rate_limited', 'x'))).toMatch(/too many requests/);
  });

  it('blames the connection, not the service, when this device is offline', async () => {
    expect(await show(new ApiError(0, 'network_error', 'x'))).toMatch(/offline/);
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    expect(await show(new ApiError(503, 'metadata_unavailable', 'x'))).toMatch(/offline/);
  });

  it('keeps the general words for a service that is down', async () => {
    expect(await show(new ApiError(503, 'metadata_unavailable', 'x'))).toMatch(/down or blocked/);
  });
});
