/**
 * The email-account forms' problems (catalog keys under `customer.errors`; the forms' schemas are in
 * customer-forms.ts) and the register body as the older subscription client sends it.
 */
export type CustomerFormError =
  | 'fullnameRequired'
  | 'emailRequired'
  | 'emailInvalid'
  | 'passwordRequired'
  | 'passwordShort'
  | 'confirmRequired'
  | 'passwordMismatch';

/** The register body: the confirmation is never sent (decision 042). */
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
