import { CustomerRegisterBody } from '../contract-schemas.ts';
import { z } from '../zod.ts';
import type { CustomerFormError } from './customer-rules.ts';
import { keyedZodResolver, type FormIssue } from './form-resolver.ts';

/*
 * The email-account forms' schemas (decision 042): the field rules are the contract's
 * CustomerRegisterBody ones, plus what only the form has (the confirmation). Messages are keys under
 * `customer.errors` (the keyed resolver maps each issue to one, never to the contract's English); the
 * server checks again. The contract's schemas and zod stay out of the first view: the web takes its other
 * contract values from `@marquee/contract/values`, so only these lazily loaded forms import the barrel.
 */
const { fullname: Fullname, email: Email, password: Password } = CustomerRegisterBody.shape;

const key = <P extends CustomerFormError | 'fullnameLong' | 'passwordLong'>(problem: P) =>
  `customer.errors.${problem}` as const;
const isBlank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/** Which message first when several fields are wrong (the order of the form's own checks). */
export const CUSTOMER_ERROR_ORDER = [
  key('fullnameRequired'),
  key('fullnameLong'),
  key('emailRequired'),
  key('emailInvalid'),
  key('passwordRequired'),
  key('confirmRequired'),
  key('passwordShort'),
  key('passwordLong'),
  key('passwordMismatch'),
  'errors.api.validation_failed',
] as const;

export type CustomerErrorKey = (typeof CUSTOMER_ERROR_ORDER)[number];

function customerIssueKey({ path, code, value }: FormIssue): CustomerErrorKey {
  switch (path) {
    case 'fullname':
      return code === 'too_big' ? key('fullnameLong') : key('fullnameRequired');
    case 'email':
      return isBlank(value) ? key('emailRequired') : key('emailInvalid');
    case 'password':
      if (value === '') return key('passwordRequired');
      return code === 'too_big' ? key('passwordLong') : key('passwordShort');
    case 'confirm':
      return value === '' ? key('confirmRequired') : key('passwordMismatch');
    default:
      return 'errors.api.validation_failed';
  }
}

export const loginFormSchema = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
});
export type LoginFormValues = z.input<typeof loginFormSchema>;
export const loginFormResolver = keyedZodResolver(loginFormSchema, customerIssueKey);

export const registerFormSchema = z
  .object({ fullname: Fullname, email: Email, password: Password, confirm: z.string().min(1) })
  // The older subscription client did not compare the two passwords; we do (decision 042).
  .refine((v) => v.password === v.confirm, { path: ['confirm'] });
export type RegisterFormValues = z.input<typeof registerFormSchema>;
export const registerFormResolver = keyedZodResolver(registerFormSchema, customerIssueKey);

/** A new password for the signed-in email account, typed twice (Settings → Security). */
export const passwordChangeSchema = z
  .object({ password: Password, confirm: z.string().min(1) })
  .refine((v) => v.password === v.confirm, { path: ['confirm'] });
export type PasswordChangeValues = z.input<typeof passwordChangeSchema>;
export const passwordChangeResolver = keyedZodResolver(passwordChangeSchema, customerIssueKey);

/** The field a message belongs to (focus moves there). */
export function customerErrorField(errorKey: string): 'fullname' | 'email' | 'password' | 'confirm' {
  if (errorKey.includes('fullname')) return 'fullname';
  if (errorKey.includes('email')) return 'email';
  if (errorKey.includes('confirm') || errorKey.includes('Mismatch')) return 'confirm';
  return 'password';
}
