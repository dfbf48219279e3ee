import { PASSWORD_MIN_LENGTH } from '@marquee/contract';

/**
 * Client-side rules of the email-account forms (the subscription seed spec). Each check answers the catalog key of
 * the first problem (under `customer.errors`), or null when the form may be sent. The server checks
 * again; its message is shown when it refuses.
 */
export type CustomerFormError =
  | 'fullnameRequired'
  | 'emailRequired'
  | 'emailInvalid'
  | 'passwordRequired'
  | 'passwordShort'
  | 'confirmRequired'
  | 'passwordMismatch';

const looksLikeEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

export function checkLogin(v: { email: string; password: string }): CustomerFormError | null {
  if (!v.email.trim()) return 'emailRequired';
  if (!v.password) return 'passwordRequired';
  return null;
}

/**
 * Register: fullname, email, password and its confirmation are required (the subscription seed spec). The seed's
 * client did not compare the two passwords; we do (decision 042): a typo there locks the user out.
 */
export function checkRegister(v: {
  fullname: string;
  email: string;
  password: string;
  confirm: string;
}): CustomerFormError | null {
  if (!v.fullname.trim()) return 'fullnameRequired';
  if (!v.email.trim()) return 'emailRequired';
  if (!looksLikeEmail(v.email)) return 'emailInvalid';
  if (!v.password) return 'passwordRequired';
  if (!v.confirm) return 'confirmRequired';
  if (v.password.length < PASSWORD_MIN_LENGTH) return 'passwordShort';
  if (v.password !== v.confirm) return 'passwordMismatch';
  return null;
}

/** Password change: both fields required and equal, otherwise "Password didn't match" (the subscription seed spec). */
export function checkPasswordChange(v: { password: string; confirm: string }): CustomerFormError | null {
  if (!v.password) return 'passwordRequired';
  if (!v.confirm) return 'confirmRequired';
  if (v.password !== v.confirm) return 'passwordMismatch';
  if (v.password.length < PASSWORD_MIN_LENGTH) return 'passwordShort';
  return null;
}

/** The register body: the confirmation is never sent (the subscription seed spec). */
export function registerBody(
  v: { fullname: string; email: string; password: string; confirm: string },
  captchaToken: string | null,
) {
  return {
    fullname: v.fullname.trim(),
    email: v.email.trim(),
    password: v.password,
    ...(captchaToken ? { captchaToken } : {}),
  };
}
