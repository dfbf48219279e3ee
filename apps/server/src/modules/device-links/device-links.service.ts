import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  DEVICE_LINK_CODE_LENGTH,
  DEVICE_LINK_PAGE,
  DEVICE_LINK_TTL_MS,
  SealedSeed,
  type DeviceLinkCreated,
  type DeviceLinkInfo,
  type DeviceLinkPollResponse,
} from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import { deviceNameOf } from '../customers/customers.service.ts';
import { FailureThrottle } from '../customers/failure-throttle.ts';
import type { PasswordHasher } from '../customers/password-hasher.ts';
import { qrDataUrl } from '../membership/qr.ts';
import { toSessionDto } from '../users/users.dto.ts';
import type { UserAccountsService } from '../users/user-accounts.service.ts';
import type { DeviceLinkRow, DeviceLinksRepository } from './device-links.repository.ts';

const notFound = () => new AppError(404, 'link_not_found', 'No sign-in code like this is waiting');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const iso = (ms: number) => new Date(ms).toISOString();
const wrongKind = (message: string) => new AppError(400, 'wrong_account_kind', message);

/** How an approving account proves it is there: its password, or (passphrase) a signed challenge and the sealed seed. */
export type Approval =
  | { password: string }
  | {
      proof: { publicKey: string; challenge: { code: string; signature: string } };
      sealed: SealedSeed;
    };

export interface DeviceLinksOptions {
  links: DeviceLinksRepository;
  auth: AuthService;
  customers: CustomersService;
  users: UserAccountsService;
  hasher: PasswordHasher;
  limits: RateLimits;
  now: () => number;
}

/**
 * Signing in on another device with a code (decision 105). The new device gets a 6-digit code (shown,
 * with a QR code of the approval page) and a poll token only it knows; a signed-in viewer looks the code
 * up (wrong codes are throttled per account), checks the device's name and approves with the account's
 * password; the new device's next poll makes its session and answers it, once. Codes live 10 minutes.
 */
export class DeviceLinksService {
  private readonly throttle: FailureThrottle;

  constructor(private readonly o: DeviceLinksOptions) {
    this.throttle = new FailureThrottle(o.limits);
  }

  async create(
    input: { device?: string | undefined; publicKey?: string | undefined },
    userAgent: string,
    origin: string,
  ): Promise<DeviceLinkCreated> {
    const now = this.o.now();
    const pollToken = randomBytes(24).toString('base64url');
    for (;;) {
      const code = String(randomInt(0, 10 ** DEVICE_LINK_CODE_LENGTH)).padStart(DEVICE_LINK_CODE_LENGTH, '0');
      const row: DeviceLinkRow = {
        id: randomBytes(12).toString('hex'),
        code_hash: sha256(code),
        poll_hash: sha256(pollToken),
        device: input.device?.trim() || deviceNameOf(userAgent),
        user_agent: userAgent.slice(0, 500),
        created_at: now,
        expires_at: now + DEVICE_LINK_TTL_MS,
        approved_by: null,
        public_key: input.publicKey ?? null,
        sealed: null,
      };
      // A code held by another waiting device: draw again (rare below a few thousand at once).
      if (!(await this.o.links.insert(row, now))) continue;
      const linkUrl = `${origin}${DEVICE_LINK_PAGE}?code=${code}`;
      return {
        linkId: row.id,
        code,
        pollToken,
        linkUrl,
        qr: await qrDataUrl(linkUrl),
        expiresAt: iso(row.expires_at),
        device: row.device,
      };
    }
  }

  /** Pending; approved (the session is made now and answered once); 410 once its time is over. */
  async poll(linkId: string, pollToken: string): Promise<DeviceLinkPollResponse> {
    const row = await this.o.links.find(linkId);
    if (!row || row.poll_hash !== sha256(pollToken)) throw notFound();
    if (row.approved_by === null) {
      if (row.expires_at <= this.o.now()) {
        await this.o.links.take(row.id);
        throw new AppError(410, 'link_expired', 'This sign-in code expired: ask for a new one');
      }
      return { status: 'pending', expiresAt: iso(row.expires_at) };
    }
    // Of two polls at once, only one takes the link and gets a session (or the sealed seed).
    const taken = await this.o.links.take(row.id);
    if (!taken?.approved_by) throw notFound();
    // A passphrase account's approval: the new device opens the seed and signs in with it itself.
    if (taken.sealed) return { status: 'sealed', sealed: SealedSeed.parse(JSON.parse(taken.sealed)) };
    const { session, token } = await this.o.auth.signIn(taken.approved_by, taken.device, taken.user_agent);
    return {
      status: 'approved',
      auth: {
        user: await this.o.customers.customerById(taken.approved_by),
        token,
        session: toSessionDto(session),
      },
    };
  }

  /** The device waiting with this code; wrong codes make the account wait (FailureThrottle). */
  async byCode(auth: AuthContext, code: string): Promise<DeviceLinkInfo> {
    return infoOf(await this.pending(auth, code));
  }

  /**
   * A fresh sign-in here — the account's password, or a passphrase account's signature over a login
   * challenge just issued — then the device waiting with this code is let in: with a session made at its
   * next poll (email accounts), or with the account's seed sealed to its key (passphrase accounts,
   * decision 107), which only it can open.
   */
  async approve(auth: AuthContext, code: string, approval: Approval): Promise<DeviceLinkInfo> {
    const row = await this.pending(auth, code);
    const user = await this.o.users.findById(auth.userId);
    if (!user) throw notFound();
    const counters = [['device_link_password', auth.userId]] as const;
    await this.throttle.check(counters);
    let sealed: string | null = null;
    if ('password' in approval) {
      if (!user.password_hash)
        throw wrongKind('This account signs in with a passphrase: approve with its 12 words');
      if (!(await this.o.hasher.verify(approval.password, user.password_hash))) {
        await this.throttle.failed(counters);
        throw new AppError(403, 'password_incorrect', 'That password is not right');
      }
    } else {
      if (user.password_hash) throw wrongKind('This account signs in with a password, not a passphrase');
      if (!row.public_key)
        throw wrongKind('This device offered no key for a passphrase: sign in there with the 12 words');
      const prover = await this.o.auth.proveKey(approval.proof).catch(async (error: unknown) => {
        await this.throttle.failed(counters);
        throw error;
      });
      // The 12 words of another account: not a proof for this one.
      if (prover !== auth.userId) {
        await this.throttle.failed(counters);
        throw new AppError(401, 'signature_invalid', 'These 12 words are another account’s');
      }
      sealed = JSON.stringify(approval.sealed);
    }
    // Approved once: a replayed approval finds no pending link.
    if (!(await this.o.links.approve(row.id, auth.userId, this.o.now(), sealed))) throw notFound();
    return infoOf(row);
  }

  private async pending(auth: AuthContext, code: string): Promise<DeviceLinkRow> {
    const counters = [['device_link_code', auth.userId]] as const;
    await this.throttle.check(counters);
    const row = await this.o.links.findPending(sha256(code), this.o.now());
    if (!row) {
      await this.throttle.failed(counters);
      throw notFound();
    }
    return row;
  }
}

const infoOf = (row: DeviceLinkRow): DeviceLinkInfo => ({
  device: row.device,
  createdAt: iso(row.created_at),
  expiresAt: iso(row.expires_at),
  publicKey: row.public_key ?? null,
});
