import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters; stored with every hash so they can be raised later without a migration. */
export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt recommendation (N=2^15, r=8, p=3: 32 MiB per hash, equivalent to its 2^17/8/1 entry),
 * decision 040. Node's own scrypt, so nothing native to install; it runs on libuv's thread pool.
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 128 * cost.N * cost.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Hashes as `scrypt$N$r$p$<salt b64url>$<key b64url>`. */
export class PasswordHasher {
  constructor(private readonly cost: ScryptCost = DEFAULT_SCRYPT_COST) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, this.cost);
    const { N, r, p } = this.cost;
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  }

  /** Constant-time comparison; false for a malformed stored hash (never throws on bad input). */
  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
    if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20 || r > 32 || p > 16)
      return false;
    const expected = Buffer.from(parts[5]!, 'base64url');
    if (expected.length !== KEY_LENGTH) return false;
    const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), { N, r, p });
    return timingSafeEqual(key, expected);
  }

  /** A hash nobody knows the password of: verifying against it costs the same as a real one. */
  private dummy: Promise<string> | undefined;
  async burn(password: string): Promise<void> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'));
    await this.verify(password, await this.dummy);
  }

  /** True when a stored hash was made with weaker parameters than today's (rehash at next sign-in). */
  needsRehash(stored: string): boolean {
    const [, N, r, p] = stored.split('$').map(Number);
    return N !== this.cost.N || r !== this.cost.r || p !== this.cost.p;
  }
}
