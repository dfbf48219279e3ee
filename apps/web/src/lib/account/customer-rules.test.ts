import { describe, expect, it } from 'vitest';
import { registerBody } from './customer-rules.ts';

import customer from '../../locales/en/customer.json';

const en = { customer };

describe('register body and messages', () => {
  const ok = {
    fullname: 'Ada Lovelace',
    email: 'ada@example.com',
    password: 'analytical',
    confirm: 'analytical',
  };
  it('never sends the confirmation; sends the captcha token when there is one', () => {
    expect(registerBody({ ...ok, fullname: ' Ada ', email: ' ada@example.com ' }, null)).toEqual({
      fullname: 'Ada',
      email: 'ada@example.com',
      password: 'analytical',
    });
    expect(registerBody(ok, 'altcha-token')).toMatchObject({ captchaToken: 'altcha-token' });
    expect(registerBody(ok, 'x')).not.toHaveProperty('confirm');
  });
  it('every error has a catalog text', () => {
    for (const key of [
      'fullnameRequired',
      'emailRequired',
      'emailInvalid',
      'passwordRequired',
      'passwordShort',
      'confirmRequired',
      'passwordMismatch',
    ] as const) {
      expect(en.customer.errors[key]).toBeTruthy();
    }
    // The words for two passwords that differ (decision 040).
    expect(en.customer.errors.passwordMismatch).toBe("Password didn't match");
  });
});
