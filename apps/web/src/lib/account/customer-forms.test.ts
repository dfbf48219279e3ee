import { describe, expect, it } from 'vitest';
import type { FieldErrors, ResolverOptions } from 'react-hook-form';
import {
  CUSTOMER_ERROR_ORDER,
  loginFormResolver,
  passwordChangeResolver,
  registerFormResolver,
  type RegisterFormValues,
} from './customer-forms.ts';
import { firstErrorKey } from './form-resolver.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<never>;
const good = {
  fullname: ' Ada ',
  email: ' ada@example.com ',
  password: 'long enough',
  confirm: 'long enough',
};

async function registerProblem(values: Partial<RegisterFormValues>) {
  const { errors } = await registerFormResolver({ ...good, ...values }, undefined, options as never);
  return firstErrorKey(errors as FieldErrors, CUSTOMER_ERROR_ORDER);
}

describe('customer form schemas', () => {
  it('register: the contract rules give i18n keys, first problem first, never English', async () => {
    expect(await registerProblem({})).toBeNull();
    expect(await registerProblem({ fullname: '  ' })).toBe('customer.errors.fullnameRequired');
    expect(await registerProblem({ fullname: 'x'.repeat(101) })).toBe('customer.errors.fullnameLong');
    expect(await registerProblem({ email: '' })).toBe('customer.errors.emailRequired');
    expect(await registerProblem({ email: 'not-an-email' })).toBe('customer.errors.emailInvalid');
    expect(await registerProblem({ password: '', confirm: '' })).toBe('customer.errors.passwordRequired');
    expect(await registerProblem({ password: 'short', confirm: '' })).toBe('customer.errors.confirmRequired');
    expect(await registerProblem({ password: 'short', confirm: 'short' })).toBe(
      'customer.errors.passwordShort',
    );
    expect(await registerProblem({ confirm: 'long enough!' })).toBe('customer.errors.passwordMismatch');
    expect(await registerProblem({ fullname: '', email: '' })).toBe('customer.errors.fullnameRequired');
  });

  it('register resolves to trimmed values', async () => {
    const { values } = await registerFormResolver(good, undefined, options as never);
    expect(values).toMatchObject({ fullname: 'Ada', email: 'ada@example.com' });
  });

  it('login: both fields required', async () => {
    const problem = async (email: string, password: string) =>
      firstErrorKey(
        (await loginFormResolver({ email, password }, undefined, options as never)).errors as FieldErrors,
        CUSTOMER_ERROR_ORDER,
      );
    expect(await problem(' ', 'x')).toBe('customer.errors.emailRequired');
    expect(await problem('ada@example.com', '')).toBe('customer.errors.passwordRequired');
    expect(await problem('ada@example.com', 'x')).toBeNull();
  });
});

describe('password change form (Settings → Security)', () => {
  const problem = async (password: string, confirm: string) => {
    const { errors } = await passwordChangeResolver({ password, confirm }, undefined, options as never);
    return firstErrorKey(errors as FieldErrors, CUSTOMER_ERROR_ORDER);
  };
  it('needs both fields, long enough and equal: otherwise "Password didn\'t match"', async () => {
    expect(await problem('', '')).toBe('customer.errors.passwordRequired');
    expect(await problem('longenough1', '')).toBe('customer.errors.confirmRequired');
    expect(await problem('longenough1', 'longenough2')).toBe('customer.errors.passwordMismatch');
    expect(await problem('short', 'short')).toBe('customer.errors.passwordShort');
    expect(await problem('longenough1', 'longenough1')).toBeNull();
  });
});
