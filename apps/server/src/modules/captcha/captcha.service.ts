import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { AltchaChallenge, CaptchaProvider } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { CaptchaSolutionsRepository } from './captcha.repository.ts';

/** Checks the human-verification token sent with `POST /auth/register/start`. */
export interface CaptchaVerifier {
  readonly provider: CaptchaProvider;
  /** Resolves when the token is good; throws a 400 (missing/invalid) or 503 (vendor unreachable) AppError. */
  verify(token: string | undefined, remoteIp: string): Promise<void>;
}

const required = () => new AppError(400, 'captcha_required', 'captcha token is required');
const invalid = () => new AppError(400, 'captcha_invalid', 'captcha token is invalid');

export class NoCaptcha implements CaptchaVerifier {
  readonly provider = 'none' as const;
  async verify(): Promise<void> {}
}

/** How long an ALTCHA challenge may be solved and submitted. */
export const ALTCHA_TTL_MS = 10 * 60_000;

/**
 * ALTCHA v1 proof of work, self-hosted: we sign challenges with an HMAC key and verify solutions
 * statelessly; a used solution is remembered until its challenge expires (the library does not stop replays).
 */
export class AltchaCaptcha implements CaptchaVerifier {
  readonly provider = 'altcha' as const;
  constructor(
    private readonly o: {
      hmacKey: string;
      maxNumber: number;
      solutions: CaptchaSolutionsRepository;
      now: () => number;
    },
  ) {}

  async challenge(): Promise<AltchaChallenge> {
    const c = await createChallenge({
      hmacKey: this.o.hmacKey,
      maxNumber: this.o.maxNumber,
      expires: new Date(Date.now() + ALTCHA_TTL_MS),
    });
    return {
      algorithm: c.algorithm,
      challenge: c.challenge,
      maxnumber: c.maxnumber ?? this.o.maxNumber,
      salt: c.salt,
      signature: c.signature,
    };
  }

  async verify(token: string | undefined): Promise<void> {
    if (!token) throw required();
    let ok = false;
    let signature = '';
    let expiresMs = this.o.now() + ALTCHA_TTL_MS;
    try {
      ok = await verifySolution(token, this.o.hmacKey, true);
      const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { signature?: unknown };
      signature = typeof payload.signature === 'string' ? payload.signature : '';
      const expires = Number(extractParams(token).expires);
      if (Number.isFinite(expires) && expires > 0) expiresMs = expires * 1000;
    } catch {
      ok = false;
    }
    if (!ok || !signature) throw invalid();
    if (!(await this.o.solutions.markUsed(`altcha:${signature}`, expiresMs))) throw invalid();
  }
}

type FetchLike = typeof fetch;

/**
 * Turnstile and reCAPTCHA v3 share the siteverify protocol: POST secret + response (+ remoteip), read
 * `success` (and for reCAPTCHA v3 the score). Vendor outages are a 503, not a pass.
 */
export class SiteverifyCaptcha implements CaptchaVerifier {
  static readonly urls = {
    turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    recaptcha: 'https://www.google.com/recaptcha/api/siteverify',
  } as const;
  /** Google's suggested starting threshold for reCAPTCHA v3 (1.0 = very likely human). */
  static readonly minScore = 0.5;

  constructor(
    readonly provider: 'turnstile' | 'recaptcha',
    private readonly o: { secret: string; fetch: FetchLike; timeoutMs?: number },
  ) {}

  async verify(token: string | undefined, remoteIp: string): Promise<void> {
    if (!token) throw required();
    const form = new URLSearchParams({ secret: this.o.secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    let answer: { success?: unknown; score?: unknown };
    try {
      const response = await this.o.fetch(SiteverifyCaptcha.urls[this.provider], {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
      answer = (await response.json()) as typeof answer;
    } catch (error) {
      throw new AppError(503, 'captcha_unavailable', 'Captcha verification is unavailable, try again later', {
        cause: error,
      });
    }
    if (answer.success !== true) throw invalid();
    if (
      this.provider === 'recaptcha' &&
      typeof answer.score === 'number' &&
      answer.score < SiteverifyCaptcha.minScore
    )
      throw invalid();
  }
}
