import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores } from '../../stores/index.ts';
import { contractServer } from '../../test/contract-server.ts';
import { LoginPage } from './login-page.tsx';
import { RegisterPage } from './register-page.tsx';

// The account protocol itself (challenge, signature) is tested with the passphrase crypto; here, what the
// pages hand to it.
const { login, register } = vi.hoisted(() => ({
  login: vi.fn(async (_passphrase: string, _device: string) => {}),
  register: vi.fn(async (_input: { passphrase: string; deviceName: string }) => {}),
}));
vi.mock('../../lib/account/auth.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/account/auth.ts')>()),
  login,
  register,
}));

const WORDS = 'awkward safe differ large subway junk gallery flight left glue fault glory';

let i18next: i18n;
function setup(authMethods: string[]) {
  setRuntimeConfig({
    variant: authMethods[0] === 'email' ? 'subscription' : 'discovery',
    authMethods,
    captcha: { provider: 'none', siteKey: null },
  } as unknown as RuntimeConfig);
}
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  login.mockClear();
  register.mockClear();
  const server = contractServer({
    account: { meta: () => ({ name: 'Marquee', version: '1', hasCaptcha: false }) },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter>{page}</MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
/** The text an input's aria-describedby points to (what a screen reader reads after its name). */
const description = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');
const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label, { selector: 'input' }), { target: { value } });

describe('the sign-in page', () => {
  it('is headed "Sign in", like the link that leads there, for either method', () => {
    setup(['passphrase']);
    const { unmount } = renderAt(<LoginPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in');
    unmount();
    setup(['email']);
    renderAt(<LoginPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in');
  });

  it('takes the passphrase with capitals, tabs and spaces around, as its 12 words', async () => {
    setup(['passphrase']);
    renderAt(<LoginPage />);
    type(
      '12-word passphrase',
      `  Awkward\tSAFE  differ large subway junk gallery flight left glue fault Glory  `,
    );
    type('Device name', 'Phone');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(login).toHaveBeenCalledWith(WORDS, 'Phone'));
    expect(screen.queryByTestId('form-error')).toBeNull();
  });

  it('keeps the words of a passphrase pasted with line breaks apart', async () => {
    setup(['passphrase']);
    renderAt(<LoginPage />);
    const input = screen.getByLabelText('12-word passphrase', { selector: 'input' });
    fireEvent.paste(input, {
      clipboardData: {
        getData: () => 'Awkward safe differ\r\nlarge subway junk\ngallery flight left\nglue fault glory\n',
      },
    });
    type('Device name', 'Phone');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(login).toHaveBeenCalledWith(WORDS, 'Phone'));
  });

  it('still refuses a wrong word', async () => {
    setup(['passphrase']);
    renderAt(<LoginPage />);
    type('12-word passphrase', WORDS.replace('glory', 'glorious'));
    type('Device name', 'Phone');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe('Incorrect or incomplete passphrase');
    expect(login).not.toHaveBeenCalled();
  });
});

describe('passphrase registration, the verify step', () => {
  async function toVerify() {
    setup(['passphrase']);
    renderAt(<RegisterPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'I trust this server' }));
    const words = screen.getAllByTestId('passphrase-word').map((w) => w.textContent);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Device name', 'Laptop');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByLabelText('12-word passphrase', { selector: 'input' });
    return words;
  }

  it('accepts the right words typed back with capitals and uneven whitespace', async () => {
    const words = await toVerify();
    const messy = `\t${words.map((w, i) => (i % 3 === 0 ? w!.toUpperCase() : w)).join(' \n ')}  `;
    type('12-word passphrase', messy);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(register.mock.calls[0]![0]).toMatchObject({ passphrase: words.join(' '), deviceName: 'Laptop' });
  });

  it('refuses other words', async () => {
    const words = await toVerify();
    type('12-word passphrase', [...words.slice(1), words[0]].join(' '));
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe("Passphrase doesn't match");
    expect(register).not.toHaveBeenCalled();
  });
});

describe('the email registration form', () => {
  const field = (id: string) => document.getElementById(id) as HTMLInputElement;

  it('shows every field error at once, each under its own field, and the password hint under Password', async () => {
    setup(['email']);
    renderAt(<RegisterPage />);
    type('Email', 'not-an-email');
    type(/^Password$/, 'short');
    type('Confirm password', 'other');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));

    const expected = {
      'register-fullname': 'Full name is required',
      'register-email': 'Email is not valid',
      'register-password': 'Password must have at least 8 characters',
      'register-confirm': "Password didn't match",
    };
    await screen.findByTestId('register-fullname-error');
    for (const [id, message] of Object.entries(expected)) {
      const input = field(id);
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(description(input)).toContain(message);
      expect(screen.getByTestId(`${id}-error`).textContent).toBe(message);
    }
    // The first field with a problem has the focus; nothing lumps the messages together.
    expect(document.activeElement).toBe(field('register-fullname'));
    expect(screen.queryByTestId('form-error')).toBeNull();
    // The hint belongs to the password, not to its confirmation.
    expect(description(field('register-password'))).toContain('At least 8 characters.');
    expect(description(field('register-confirm'))).not.toContain('At least 8 characters.');
    expect(screen.getAllByText('At least 8 characters.')).toHaveLength(1);
  });

  it('clears a field’s error when that field changes, and only that one', async () => {
    setup(['email']);
    renderAt(<RegisterPage />);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByTestId('register-email-error');
    type('Email', 'a');
    expect(screen.queryByTestId('register-email-error')).toBeNull();
    expect(field('register-email').hasAttribute('aria-invalid')).toBe(false);
    expect(description(field('register-email'))).toBe('');
    expect(screen.getByTestId('register-fullname-error').textContent).toBe('Full name is required');
    expect(screen.getByTestId('register-password-error').textContent).toBe('Password is required');
  });
});
