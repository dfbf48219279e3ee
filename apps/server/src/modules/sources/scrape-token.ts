/** Where the signing key lives: the instance's secrets, shared by every process of the instance. */
export interface SecretStore {
  getOrCreate(name: string, now: number): Promise<string>;
}

const AUDIENCE = 'marquee-scrape';
export const SCRAPE_TOKEN_SECRET_NAME = 'scrape-token-key';

/**
 * The JWT a scrape client gets after it solved a captcha, so one solve covers a while (the app family's
 * `jwt|<token>` scheme; its clients read `exp` to know when to solve again).
 */
export class ScrapeTokens {
  private key: Promise<Uint8Array> | null = null;

  constructor(private readonly o: { secrets: SecretStore; ttlSeconds: number; now: () => number }) {}

  private signingKey(): Promise<Uint8Array> {
    this.key ??= this.o.secrets
      .getOrCreate(SCRAPE_TOKEN_SECRET_NAME, this.o.now())
      .then((secret) => new TextEncoder().encode(secret))
      .catch((error: unknown) => {
        this.key = null;
        throw error;
      });
    return this.key;
  }

  async issue(): Promise<string> {
    // jose is loaded with the first token: only instances with SCRAPE_REQUIRES_CAPTCHA issue any.
    const { SignJWT } = await import('jose');
    const now = Math.floor(this.o.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + this.o.ttlSeconds)
      .sign(await this.signingKey());
  }

  async isValid(token: string): Promise<boolean> {
    const key = await this.signingKey();
    const { jwtVerify } = await import('jose');
    try {
      await jwtVerify(token, key, {
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: new Date(this.o.now()),
      });
      return true;
    } catch {
      return false;
    }
  }
}
