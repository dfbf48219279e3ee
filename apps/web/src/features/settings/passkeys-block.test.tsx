import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthError } from '../../lib/account/auth.ts';
import { PasskeyError, type PasskeyItem } from '../../lib/account/passkeys.ts';
import { ApiError } from '../../lib/api/index.ts';
import { accountQueries } from '../../lib/api/queries/account.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import type { Account } from '../../stores/index.ts';
import { testAccount, testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { PasskeysBlock } from './passkeys-block.tsx';

// The browser's passkey dialog cannot run in jsdom: the library is faked, the block's use of it is tested.
const passkeys = vi.hoisted(() => ({
  passkeysSupported: vi.fn(() => true),
  listPasskeys: vi.fn(async (): Promise<PasskeyItem[]> => []),
  removePasskey: vi.fn(async (_id: string) => {}),
  addPasskey: vi.fn(async (input: { name: string; secret: string }): Promise<PasskeyItem> => ({
    id: 'new',
    name: input.name,
    createdAt: '2026-06-01T10:00:00Z',
    lastUsedAt: null,
    unlocksAccount: false,
  })),
}));
vi.mock('../../lib/account/passkeys.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/account/passkeys.ts')>()),
  ...passkeys,
}));

const WORDS = 'awkward safe differ large subway junk gallery flight left glue fault glory';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const PIXEL: PasskeyItem = {
  id: 'p1',
  name: 'Pixel 8',
  createdAt: '2026-03-04T12:00:00Z',
  lastUsedAt: '2026-05-06T12:00:00Z',
  unlocksAccount: true,
};
const UNREADABLE: PasskeyItem = {
  id: 'p2',
  name: '',
  createdAt: '2026-04-01T12:00:00Z',
  lastUsedAt: null,
  unlocksAccount: false,
};

const emailAccount = testEmailAccount() as Account;
const passphraseAccount = testAccount() as Account;

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(FIREFOX_ON_LINUX);
  passkeys.passkeysSupported.mockReturnValue(true);
  passkeys.listPasskeys.mockResolvedValue([PIXEL, UNREADABLE]);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

const testClient = () => new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });

function renderBlock(account: Account, client = testClient()) {
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <PasskeysBlock account={account} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return userEvent.setup();
}

const rows = async () => within(await screen.findByTestId('passkey-list')).getAllByTestId('passkey');
const submit = () => screen.getByRole('button', { name: 'Add passkey' });

describe('Settings → Passkeys', () => {
  it('lists the passkeys with when each was added and last used, and a placeholder for a name unread', async () => {
    renderBlock(emailAccount);
    const [pixel, unnamed] = await rows();
    expect(
      within(screen.getByTestId('passkeys-block')).getByRole('heading', { name: 'Passkeys' }),
    ).toBeTruthy();
    expect(pixel!.textContent).toContain('Pixel 8');
    expect(pixel!.textContent).toContain('Added Mar 4, 2026');
    expect(pixel!.textContent).toContain('Last used May 6, 2026');
    expect(unnamed!.textContent).toContain('Unnamed passkey');
    expect(unnamed!.textContent).toContain('Never used');
    expect(screen.getByText(/instead of your password\./)).toBeTruthy();
    // Only a passphrase account's passkey opens the account: an email account's list says nothing of it.
    expect(screen.queryByText('Opens your account on a new device')).toBeNull();
  });

  it('tells a passphrase account which passkeys open it, and that its words stay the way back', async () => {
    renderBlock(passphraseAccount);
    const [pixel, unnamed] = await rows();
    expect(pixel!.textContent).toContain('Opens your account on a new device');
    expect(unnamed!.textContent).not.toContain('Opens your account');
    expect(screen.getByText(/your words stay the way back/)).toBeTruthy();
  });

  it('asks before removing; Cancel keeps the passkey, Remove removes it and reads the list again', async () => {
    const keys = renderBlock(emailAccount);
    await rows();
    await keys.click(screen.getByRole('button', { name: 'Remove Pixel 8' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove this passkey?' });
    expect(dialog.textContent).toContain('Pixel 8 will no longer sign in to your account.');
    // The focus starts on Cancel: Enter on a reflex keeps the passkey.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await keys.keyboard('{Enter}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(passkeys.removePasskey).not.toHaveBeenCalled();

    passkeys.listPasskeys.mockResolvedValue([UNREADABLE]);
    await keys.click(screen.getByRole('button', { name: 'Remove Pixel 8' }));
    await keys.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(passkeys.removePasskey).toHaveBeenCalledWith('p1');
    const status = await screen.findByTestId('passkey-list-status');
    expect(status.textContent).toBe('The passkey is removed.');
    // The row (and its button) is gone: the focus lands on what happened, not on the page's start.
    expect(status.parentElement!.contains(document.activeElement)).toBe(true);
    await waitFor(async () => expect(await rows()).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(passkeys.listPasskeys).toHaveBeenCalledTimes(2);
  });

  it('says so when the passkey was already removed, and shows the list as it is now', async () => {
    passkeys.removePasskey.mockRejectedValueOnce(new ApiError(404, 'passkey_not_found', 'gone'));
    const keys = renderBlock(emailAccount);
    await rows();
    passkeys.listPasskeys.mockResolvedValue([PIXEL]);
    await keys.click(screen.getByRole('button', { name: 'Remove Unnamed passkey' }));
    await keys.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This passkey was already removed.');
    await waitFor(async () => expect(await rows()).toHaveLength(1));
  });

  it("adds an email account's passkey with this device's name and the password", async () => {
    const keys = renderBlock(emailAccount);
    await rows();
    const name = screen.getByLabelText<HTMLInputElement>('Passkey name');
    expect(name.value).toBe('Firefox on Linux');
    await keys.click(submit());
    expect(screen.getByRole('alert').textContent).toBe('Enter your account password.');
    expect(document.activeElement).toBe(screen.getByLabelText('Your account password'));
    await keys.type(screen.getByLabelText('Your account password'), 'hunter22 hunter22');
    passkeys.listPasskeys.mockResolvedValue([PIXEL, UNREADABLE, { ...UNREADABLE, id: 'new', name: 'x' }]);
    await keys.click(submit());
    expect(passkeys.addPasskey).toHaveBeenCalledWith({
      name: 'Firefox on Linux',
      secret: 'hunter22 hunter22',
    });
    expect((await screen.findByTestId('passkey-add-status')).textContent).toBe(
      'Passkey added. You can sign in with it now.',
    );
    await waitFor(async () => expect(await rows()).toHaveLength(3));
    expect(screen.getByLabelText<HTMLInputElement>('Your account password').value).toBe('');
  });

  it("adds a passphrase account's passkey with the name given and the 12 words", async () => {
    const keys = renderBlock(passphraseAccount);
    await rows();
    const name = screen.getByLabelText('Passkey name');
    await keys.clear(name);
    await keys.click(submit());
    expect(screen.getByRole('alert').textContent).toBe('Give the passkey a name.');
    await keys.type(name, 'Security key');
    await keys.click(submit());
    expect(screen.getByRole('alert').textContent).toBe('Enter your 12-word passphrase.');
    await keys.type(screen.getByLabelText('Your 12-word passphrase'), WORDS);
    await keys.click(submit());
    expect(passkeys.addPasskey).toHaveBeenCalledWith({ name: 'Security key', secret: WORDS });
    expect(await screen.findByTestId('passkey-add-status')).toBeTruthy();
  });

  it.each([
    [new ApiError(403, 'password_incorrect', 'no'), "That password isn't right."],
    [
      new ApiError(409, 'passkey_limit', 'full'),
      'Your account has all the passkeys it can keep. Remove one first.',
    ],
    [new ApiError(403, 'proof_required', 'proof'), 'Enter your password or your 12 words to do this.'],
    [
      new PasskeyError('noUnlock'),
      "This passkey can't open your account: your browser or security key doesn't support it.",
    ],
    [new AuthError('invalidPassphrase'), 'Incorrect or incomplete passphrase'],
  ])('shows why adding failed: %s', async (error, text) => {
    passkeys.addPasskey.mockRejectedValueOnce(error);
    const keys = renderBlock(passphraseAccount);
    await rows();
    await keys.type(screen.getByLabelText('Your 12-word passphrase'), WORDS);
    await keys.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it('says calmly that the passkey dialog was closed', async () => {
    passkeys.addPasskey.mockRejectedValueOnce(new PasskeyError('cancelled'));
    const keys = renderBlock(emailAccount);
    await rows();
    await keys.type(screen.getByLabelText('Your account password'), 'hunter22 hunter22');
    await keys.click(submit());
    expect((await screen.findByRole('status')).textContent).toBe(
      "The passkey request was closed before it finished. Try again when you're ready.",
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers no way to add one where this browser has no passkeys', async () => {
    passkeys.passkeysSupported.mockReturnValue(false);
    renderBlock(emailAccount);
    await rows();
    expect(screen.getByTestId('passkeys-unsupported').textContent).toBe(
      "This browser can't use passkeys here.",
    );
    expect(screen.queryByRole('button', { name: 'Add passkey' })).toBeNull();
    expect(screen.queryByLabelText('Your account password')).toBeNull();
  });

  it('shows nothing in a kids’ profile, nor where the account server has no passkeys', async () => {
    const kids = {
      ...testEmailAccount({
        ...testCustomer(),
        profiles: [
          { _id: 'k1', fullname: 'Kid', icon: 'cat', kids: { region: 'US', maxAge: 7, showUnrated: false } },
        ],
      }),
      profileId: 'k1',
    } as Account;
    const { unmount } = render(
      <I18nextProvider i18n={i18next}>
        <QueryClientProvider client={new QueryClient()}>
          <PasskeysBlock account={kids} />
        </QueryClientProvider>
      </I18nextProvider>,
    );
    expect(screen.queryByTestId('passkeys-block')).toBeNull();
    expect(passkeys.listPasskeys).not.toHaveBeenCalled();
    unmount();

    passkeys.listPasskeys.mockRejectedValue(new ApiError(404, 'route_not_found', 'not found'));
    const client = testClient();
    renderBlock(emailAccount, client);
    // The question is settled (a second try would have come before it).
    await waitFor(() =>
      expect(client.getQueryState(accountQueries.passkeyKeys.ofUser(emailAccount.userId))?.status).toBe(
        'error',
      ),
    );
    expect(screen.queryByTestId('passkeys-block')).toBeNull();
    // An older server answers the same every time: asked once.
    expect(passkeys.listPasskeys).toHaveBeenCalledTimes(1);
  });
});
