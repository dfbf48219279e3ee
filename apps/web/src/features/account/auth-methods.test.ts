import { describe, expect, it } from 'vitest';
import { authMethodOrder, chosenMethod } from './auth-methods.ts';

describe('sign-in methods offered by /login and /register', () => {
  it('the subscription variant leads with email, the discovery variant with the passphrase', () => {
    expect(authMethodOrder({ variant: 'subscription', authMethods: ['passphrase', 'email'] })).toEqual([
      'email',
      'passphrase',
    ]);
    expect(authMethodOrder({ variant: 'discovery', authMethods: ['email', 'passphrase'] })).toEqual([
      'passphrase',
      'email',
    ]);
    expect(authMethodOrder({ variant: 'subscription', authMethods: ['email'] })).toEqual(['email']);
    expect(authMethodOrder({ variant: 'subscription', authMethods: ['passphrase'] })).toEqual(['passphrase']);
  });
  it('?method= picks an enabled method only', () => {
    expect(chosenMethod(['email', 'passphrase'], 'passphrase')).toBe('passphrase');
    expect(chosenMethod(['email'], 'passphrase')).toBe('email');
    expect(chosenMethod(['passphrase', 'email'], null)).toBe('passphrase');
  });
});
