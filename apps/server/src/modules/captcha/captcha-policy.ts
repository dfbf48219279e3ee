import type { CaptchaProvider } from '@marquee/contract';

/**
 * Whether clients of the app family's account protocol (sudo-flix, movie-web) can solve this
 * instance's registration captcha: they only know reCAPTCHA v3, and only with the site key that
 * `GET /meta` hands them. With any other captcha, `/meta` says `hasCaptcha: false` and registration
 * accepts them without a token, under tighter rate limits (decision 015).
 */
export function protocolClientsCanSolveCaptcha(
  provider: CaptchaProvider,
  siteKey: string | undefined,
): boolean {
  return provider === 'recaptcha' && Boolean(siteKey);
}
