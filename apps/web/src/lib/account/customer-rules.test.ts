import { describe, expect, it } from 'vitest';
import enCatalog from '../../locales/en.json';
import { checkLogin, checkPasswordChange, checkRegister, registerBody } from './customer-rules.ts';

const en = enCatalog as unknown as { customer: { errors: Record<string, string> } };

describe('password change (the subscription seed spec)', () => {
  it('needs both fields, equal: otherwise "Password didn\'t match"', () => {
    expect(checkPasswordChange({ password: '', confirm: '' })).toBe('passwordRequired');
    expect(checkPasswordChange({ password: 'longenough1', confirm: '' })).toBe('confirmRequired');
    expect(checkPasswordChange({ password: 'longenough1', confirm: 'longenough2' })).toBe('passwordMismatch');
    expect(en.customer.errors.passwordMismatch).toBe("Password didn't match");
    expect(checkPasswordChange({ password: 'short', confirm: 'short' })).toBe('passwordShort');
    expect(checkPasswordChange({ password: 'longenough1', confirm: 'longenough1' })).toBeNull();
  });
});

describe('register and login forms', () => {
  const ok = {
    fullname: 'Ada Lovelace',
    email: 'ada@example.com',
    password: 'analytical',
    confirm: 'analytical',
  };
  it('requires fullname, email, password and its confirmation', () => {
    expect(checkRegister({ ...ok, fullname: '  ' })).toBe('fullnameRequired');
    expect(checkRegister({ ...ok, email: '' })).toBe('emailRequired');
    expect(checkRegister({ ...ok, email: 'ada' })).toBe('emailInvalid');
    expect(checkRegister({ ...ok, password: '' })).toBe('passwordRequired');
    expect(checkRegister({ ...ok, confirm: '' })).toBe('confirmRequired');
    expect(checkRegister({ ...ok, confirm: 'analytica' })).toBe('passwordMismatch');
    expect(checkRegister(ok)).toBeNull();
  });
  it('never sends the confirmation; sends the captcha token when there is one', () => {
    expect(registerBody({ ...ok, fullname: ' Ada ', email: ' ada@example.com ' }, null)).toEqual({
      fullname: 'Ada',
      email: 'ada@example.com',
      password: 'analytical',
    });
    expect(registerBody(ok, 'altcha-token')).toMatchObject({ captchaToken: 'altcha-token' });
    expect(registerBody(ok, 'x')).not.toHaveProperty('confirm');
  });
  it('login needs email and password', () => {
    expect(checkLogin({ email: '', password: 'x' })).toBe('emailRequired');
    expect(checkLogin({ email: 'a@b.c', password: '' })).toBe('passwordRequired');
    expect(checkLogin({ email: 'a@b.c', password: 'x' })).toBeNull();
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
    ]) {
      expect(en.customer.errors[key]).toBeTruthy();
    }
  });
});
