import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import type { Account } from '../../stores/index.ts';
import { testEmailAccount } from '../../test/account-fixtures.ts';
import { DeleteAccount } from './account-section.tsx';

// The account without a customer record: the dialog needs only who is signed in.
const { user: _user, ...account } = testEmailAccount() as Account & { user: unknown };

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{pathname + search}</output>;
}

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
});

/** The app's history starts at `entries` (the last one current): a direct link is a history of one. */
function renderAt(...entries: string[]) {
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={entries}>
          <Routes>
            <Route
              path="/settings"
              element={
                <>
                  <DeleteAccount account={account} />
                  <Where />
                </>
              }
            />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return userEvent.setup();
}

const where = () => screen.getByTestId('where').textContent;
const dialog = () => screen.getByRole('dialog', { name: 'Delete your account?' });
const cancel = () => screen.getByRole('button', { name: 'Cancel' });
const opener = () => screen.getByRole('button', { name: 'Delete account' });

describe('the delete-account dialog', () => {
  it('reached by a direct ?m= link: Cancel closes it and stays on the settings page', async () => {
    const keys = renderAt('/settings?m=delete-account');
    expect(document.activeElement).toBe(cancel());
    expect(dialog()).toBeTruthy();
    await keys.click(cancel());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/settings');
  });

  it('reached by a direct link after another site page: Cancel still stays on settings', async () => {
    const keys = renderAt('/', '/settings?m=delete-account');
    await keys.click(cancel());
    expect(where()).toBe('/settings');
  });

  it('opened from its button: takes focus; Esc closes it, back on settings, focus on the button', async () => {
    const keys = renderAt('/', '/settings');
    await keys.click(opener());
    expect(where()).toBe('/settings?m=delete-account');
    expect(dialog().contains(document.activeElement)).toBe(true);
    await keys.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/settings');
    expect(document.activeElement).toBe(opener());
  });

  it('opened from its button: Cancel and a backdrop click close it without leaving settings', async () => {
    const keys = renderAt('/', '/settings');
    await keys.click(opener());
    await keys.click(cancel());
    expect(where()).toBe('/settings');
    expect(document.activeElement).toBe(opener());
    await keys.click(opener());
    await keys.click(dialog());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(where()).toBe('/settings');
  });

  it('keeps Tab inside the dialog', async () => {
    const keys = renderAt('/settings');
    await keys.click(opener());
    for (let i = 0; i < 4; i++) {
      await keys.tab();
      expect(dialog().contains(document.activeElement)).toBe(true);
    }
  });
});
