import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  browserAndSystemOf,
  isSealedName,
  MAX_PROFILES,
  profileIcons,
  type CustomerAuthResponse,
  type CustomerProfile,
  type ContentLimit,
  type CustomerUser,
  type ProfileIcon,
} from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { newUserId } from '../auth/auth.service.ts';
import type { CaptchaVerifier } from '../captcha/captcha.service.ts';
import type { LibraryRef } from '../library/library.ts';
import { toSessionDto } from '../users/users.dto.ts';
import type { UserAccountsService, UserRow } from '../users/user-accounts.service.ts';
import type { CustomersRepository, ProfileRow } from './customers.repository.ts';
import type { PasswordHasher } from './password-hasher.ts';
import { parseLimit, storedLimit, type KidsProfiles } from './kids-profiles.ts';
import type { ProfileLocks } from './profile-locks.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { ADMIN_ROLE, hasRole, normaliseEmail, parseRoles, withRole } from './roles.ts';

/** How a customer's membership is read (the membership module's repository provides it). */
export interface MembershipReader {
  endOf(userId: string): Promise<number | null>;
}

export interface CustomersServiceOptions {
  db: Kysely<Database>;
  users: UserAccountsService;
  customers: CustomersRepository;
  auth: AuthService;
  hasher: PasswordHasher;
  captcha: CaptchaVerifier;
  memberships: MembershipReader;
  /** Normalised ADMIN_EMAILS. */
  adminEmails: ReadonlySet<string>;
  now: () => number;
  onRegistered?: (namespace: string) => void;
  /** Slows password guessing per address without locking the owner out (decision 070). */
  throttle?: SignInThrottle;
  /** Profile PINs (decision 104). */
  locks: ProfileLocks;
  /** Kids' profiles (decision 106). */
  kids: KidsProfiles;
}

/** A household profile as a client sends it; `kids` absent leaves its limit as it is. */
type ProfileFields = { fullname: string; icon: ProfileIcon; kids?: ContentLimit | null | undefined };

/** The namespace of email accounts (passphrase clients send their app's name, e.g. movie-web). */
export const EMAIL_NAMESPACE = 'email';
const DEFAULT_ICON: ProfileIcon = 'cat';
/** Passphrase-style profile colours, so GET /users/@me shows an email account in the usual shape. */
const DEFAULT_COLORS = { colorA: '#2E5BFF', colorB: '#8C3DD6' };

const invalidCredentials = () => new AppError(401, 'invalid_credentials', 'Email or password is incorrect');
const profileNotFound = () => new AppError(404, 'profile_not_found', 'Profile not found');
const gone = () => new AppError(401, 'unauthorized', 'Not logged in');
const tooManyProfiles = () =>
  new AppError(409, 'profile_limit', `An account can have at most ${MAX_PROFILES} profiles`);
const newProfileId = () => randomBytes(12).toString('hex');
const PLAIN_NAME_MAX_LENGTH = 100;

/**
 * A passphrase account's profile names are sealed with its key on the device (decision 108), an email
 * account's are plain: a name in the other form is refused, so no client stores a passphrase
 * household's names readable here, and no sealed blob passes for an email account's name.
 */
function assertNameForm(user: Pick<UserRow, 'email'>, names: readonly (string | undefined)[]): void {
  const sealed = user.email === null;
  for (const name of names) {
    if (name === undefined) continue;
    if (sealed ? !isSealedName(name.trim()) : name.trim().length > PLAIN_NAME_MAX_LENGTH)
      throw new AppError(
        400,
        'profile_name_form',
        sealed
          ? "This account's profile names are sealed with its key on the device"
          : `A profile name has at most ${PLAIN_NAME_MAX_LENGTH} characters`,
      );
  }
}

const isProfileIcon = (icon: string): icon is ProfileIcon =>
  (profileIcons as readonly string[]).includes(icon);
const toProfileDto = (row: ProfileRow, locked: ReadonlySet<string>): CustomerProfile => ({
  _id: row.id,
  fullname: row.fullname,
  icon: isProfileIcon(row.icon) ? row.icon : DEFAULT_ICON,
  hasPin: locked.has(row.id),
  kids: parseLimit(row.content_limit),
});

/**
 * Email accounts (decision 040): registration, password sign-in, name/icon, password change, and the
 * ADMIN_EMAILS rule; household profiles and their libraries for both account kinds (a passphrase
 * account's names sealed, decision 108). Sessions are the passphrase accounts' own.
 */
export class CustomersService {
  constructor(private readonly o: CustomersServiceOptions) {}

  async register(
    input: { fullname: string; email: string; password: string; captchaToken?: string | undefined },
    remoteIp: string,
  ): Promise<CustomerUser> {
    await this.o.captcha.verify(input.captchaToken, remoteIp);
    const email = normaliseEmail(input.email);
    const now = this.o.now();
    const row: UserRow = {
      id: newUserId(),
      namespace: EMAIL_NAMESPACE,
      public_key: null,
      email,
      password_hash: await this.o.hasher.hash(input.password),
      roles: JSON.stringify(this.o.adminEmails.has(email) ? [ADMIN_ROLE] : []),
      profile: JSON.stringify({ ...DEFAULT_COLORS, icon: DEFAULT_ICON }),
      created_at: now,
      last_logged_in: null,
      fullname: input.fullname.trim(),
    };
    if (!(await this.o.customers.insertIfEmailFree(row))) {
      throw new AppError(409, 'email_taken', 'An account with this email already exists');
    }
    this.o.onRegistered?.(EMAIL_NAMESPACE);
    return this.customerOf(row);
  }

  /**
   * Unknown email and wrong password answer alike, after the same amount of hashing work. An address
   * that keeps failing must wait before its next try (429, checked before any hashing); the owner, from
   * an address that has not been failing, always gets in, and is told how many attempts failed since
   * the last sign-in (`failedSignIns`).
   */
  async login(
    input: { email: string; password: string; device?: string | undefined },
    userAgent: string,
    address: string,
  ): Promise<CustomerAuthResponse> {
    const email = normaliseEmail(input.email);
    await this.o.throttle?.check(email, address);
    const user = email ? await this.o.customers.findByEmail(email) : undefined;
    if (!user?.password_hash) {
      await this.o.hasher.burn(input.password);
      await this.o.throttle?.failed(email, address);
      throw invalidCredentials();
    }
    if (!(await this.o.hasher.verify(input.password, user.password_hash))) {
      await this.o.throttle?.failed(email, address);
      throw invalidCredentials();
    }
    const failedSignIns = (await this.o.throttle?.succeeded(email, address)) ?? 0;
    if (this.o.hasher.needsRehash(user.password_hash)) {
      await this.o.customers.setPasswordHash(user.id, await this.o.hasher.hash(input.password));
    }
    // ADMIN_EMAILS grants at every sign-in (it never revokes: the operator command does that).
    let roles = parseRoles(user.roles);
    if (this.o.adminEmails.has(email) && !roles.includes(ADMIN_ROLE)) {
      roles = withRole(roles, ADMIN_ROLE, true);
      await this.o.customers.setRoles(user.id, roles);
    }
    const device = input.device?.trim() || deviceNameOf(userAgent);
    const { session, token, at } = await this.o.auth.signIn(user.id, device, userAgent);
    return {
      user: await this.customerOf({ ...user, roles: JSON.stringify(roles), last_logged_in: at }),
      token,
      session: toSessionDto(session),
      failedSignIns,
    };
  }

  async get(auth: AuthContext): Promise<CustomerUser> {
    return this.customerOf(await this.userOf(auth));
  }

  async update(
    auth: AuthContext,
    input: {
      fullname?: string | undefined;
      icon?: ProfileIcon | undefined;
      profiles?: (ProfileFields & { _id?: string | undefined })[] | undefined;
    },
    /** X-Profile-Token: changes to a locked profile need it open on this device. */
    unlockToken?: string | string[] | undefined,
  ): Promise<CustomerUser> {
    const user = await this.userOf(auth);
    assertNameForm(user, [input.fullname, ...(input.profiles ?? []).map((p) => p.fullname)]);
    const changes: { fullname?: string; profile?: string } = {};
    if (input.fullname !== undefined || input.icon !== undefined)
      await this.o.locks.assertOpen(auth, '', unlockToken);
    if (input.fullname !== undefined) changes.fullname = input.fullname.trim();
    if (input.icon !== undefined)
      changes.profile = JSON.stringify({ ...(JSON.parse(user.profile) as object), icon: input.icon });
    if (input.profiles) await this.assertListOpen(auth, input.profiles, unlockToken);
    await this.o.customers.updateUser(user.id, changes);
    if (input.profiles) await this.replaceProfiles(user.id, input.profiles);
    return this.get(auth);
  }

  /** A list that deletes or changes a locked profile needs that profile open (decision 104). */
  private async assertListOpen(
    auth: AuthContext,
    wanted: (ProfileFields & { _id?: string | undefined })[],
    unlockToken: string | string[] | undefined,
  ): Promise<void> {
    const locked = await this.o.locks.lockedIds(auth.userId);
    if (locked.size === 0) return;
    const wantedById = new Map(wanted.flatMap((w) => (w._id === undefined ? [] : [[w._id, w] as const])));
    for (const row of await this.o.customers.listProfiles(auth.userId)) {
      if (!locked.has(row.id)) continue;
      const next = wantedById.get(row.id);
      if (!next || next.fullname.trim() !== row.fullname || next.icon !== row.icon)
        await this.o.locks.assertOpen(auth, row.id, unlockToken);
    }
  }

  /** The whole list: listed ids change, new entries are added, profiles left out are deleted with their library. */
  private async replaceProfiles(
    userId: string,
    wanted: (ProfileFields & { _id?: string | undefined })[],
  ): Promise<void> {
    await this.o.db.transaction().execute(async (trx) => {
      await this.o.users.lockUser(trx, userId);
      const current = new Map((await this.o.customers.listProfiles(userId, trx)).map((p) => [p.id, p]));
      const kept = new Set<string>();
      for (const item of wanted) {
        if (item._id === undefined) continue;
        if (!current.has(item._id) || kept.has(item._id)) throw profileNotFound();
        kept.add(item._id);
      }
      for (const id of current.keys())
        if (!kept.has(id)) await this.o.customers.deleteProfile(userId, id, trx);
      for (const [position, item] of wanted.entries()) {
        const fields = {
          fullname: item.fullname.trim(),
          icon: item.icon,
          position,
          ...(item.kids !== undefined ? { content_limit: storedLimit(item.kids) } : {}),
        };
        if (item._id !== undefined) await this.o.customers.updateProfile(userId, item._id, fields, trx);
        else
          await this.o.customers.insertProfile(
            { id: newProfileId(), user_id: userId, ...fields, created_at: this.o.now() },
            trx,
          );
      }
    });
  }

  async createProfile(
    auth: AuthContext,
    input: ProfileFields,
  ): Promise<{ user: CustomerUser; profile: CustomerProfile }> {
    assertNameForm(await this.userOf(auth), [input.fullname]);
    const row: ProfileRow = {
      id: newProfileId(),
      user_id: auth.userId,
      fullname: input.fullname.trim(),
      icon: input.icon,
      position: 0,
      created_at: this.o.now(),
      content_limit: storedLimit(input.kids ?? null),
    };
    await this.o.db.transaction().execute(async (trx) => {
      await this.o.users.lockUser(trx, auth.userId);
      const existing = await this.o.customers.listProfiles(auth.userId, trx);
      if (existing.length >= MAX_PROFILES) throw tooManyProfiles();
      row.position = Math.max(-1, ...existing.map((p) => p.position)) + 1;
      await this.o.customers.insertProfile(row, trx);
    });
    return { user: await this.get(auth), profile: toProfileDto(row, new Set()) };
  }

  async patchProfile(
    auth: AuthContext,
    profileId: string,
    input: Partial<ProfileFields>,
    unlockToken?: string | string[] | undefined,
  ): Promise<{ user: CustomerUser; profile: CustomerProfile }> {
    if (profileId.length <= 64 && (await this.o.customers.findProfile(auth.userId, profileId)))
      await this.o.locks.assertOpen(auth, profileId, unlockToken);
    assertNameForm(await this.userOf(auth), [input.fullname]);
    const changes: { fullname?: string; icon?: string; content_limit?: string | null } = {};
    if (input.fullname !== undefined) changes.fullname = input.fullname.trim();
    if (input.icon !== undefined) changes.icon = input.icon;
    if (input.kids !== undefined) changes.content_limit = storedLimit(input.kids);
    const row = await this.o.customers.updateProfile(auth.userId, profileId, changes);
    if (!row) throw profileNotFound();
    return {
      user: await this.get(auth),
      profile: toProfileDto(row, await this.o.locks.lockedIds(auth.userId)),
    };
  }

  async deleteProfile(
    auth: AuthContext,
    profileId: string,
    unlockToken?: string | string[] | undefined,
  ): Promise<CustomerUser> {
    if (await this.o.customers.findProfile(auth.userId, profileId))
      await this.o.locks.assertOpen(auth, profileId, unlockToken);
    const existed = await this.o.db
      .transaction()
      .execute((trx) => this.o.customers.deleteProfile(auth.userId, profileId, trx));
    if (!existed) throw profileNotFound();
    return this.get(auth);
  }

  /** New password; the other sessions of the account are signed out (the calling one stays). */
  async changePassword(
    auth: AuthContext,
    input: { password: string; confirm: string },
  ): Promise<CustomerUser> {
    if (input.password !== input.confirm)
      throw new AppError(400, 'password_mismatch', "Password didn't match");
    const user = await this.userOf(auth);
    if (!user.email)
      throw new AppError(
        400,
        'wrong_account_kind',
        'This account signs in with a passphrase, not a password',
      );
    await this.o.customers.setPasswordHash(user.id, await this.o.hasher.hash(input.password));
    await this.o.customers.deleteOtherSessions(user.id, auth.sessionId);
    return this.customerOf(user);
  }

  /**
   * Which library a sync call uses: the account's own (no header / empty) or one of its household
   * profiles. Another account's profile id answers 404, exactly like an unknown one.
   */
  async libraryFor(userId: string, profileHeader: string | string[] | undefined): Promise<LibraryRef> {
    const profileId = typeof profileHeader === 'string' ? profileHeader.trim() : '';
    if (!profileId) return { userId, profileId: '' };
    if (profileId.length > 64 || !(await this.o.customers.findProfile(userId, profileId)))
      throw profileNotFound();
    return { userId, profileId };
  }

  /**
   * The library of the caller's X-Profile-Id profile, refused (403 `profile_locked`) when that profile
   * has a PIN and `unlockToken` is not this session's live unlock of it (decision 104).
   */
  async openLibraryFor(
    auth: AuthContext,
    profileHeader: string | string[] | undefined,
    unlockToken: string | string[] | undefined,
  ): Promise<LibraryRef> {
    // A device in a kids' profile uses the kid's library, whatever it names (decision 106).
    const kid = await this.o.kids.libraryOf(auth, profileHeader);
    const library =
      kid !== null
        ? { userId: auth.userId, profileId: kid }
        : await this.libraryFor(auth.userId, profileHeader);
    await this.o.locks.assertOpen(auth, library.profileId, unlockToken);
    return library;
  }

  async isAdmin(userId: string): Promise<boolean> {
    const user = await this.o.users.findById(userId);
    return !!user && hasRole(user.roles, ADMIN_ROLE);
  }

  /** The customer user shape (decision 040) for any account (passphrase accounts: email null, fullname ''). */
  async customerOf(user: UserRow): Promise<CustomerUser> {
    const [profiles, endsAt, locked] = await Promise.all([
      this.o.customers.listProfiles(user.id),
      this.o.memberships.endOf(user.id),
      this.o.locks.lockedIds(user.id),
    ]);
    const profile = JSON.parse(user.profile) as { icon?: string };
    return {
      id: user.id,
      fullname: user.fullname ?? '',
      email: user.email,
      icon: profile.icon ?? DEFAULT_ICON,
      hasPin: locked.has(''),
      profiles: profiles.map((row) => toProfileDto(row, locked)),
      isAdmin: hasRole(user.roles, ADMIN_ROLE),
      endSubcriptionDate: endsAt === null ? null : new Date(endsAt).toISOString(),
      hasMembership: endsAt !== null && endsAt > this.o.now(),
    };
  }

  async customerById(userId: string): Promise<CustomerUser> {
    const user = await this.o.users.findById(userId);
    if (!user) throw gone();
    return this.customerOf(user);
  }

  private async userOf(auth: AuthContext): Promise<UserRow> {
    const user = await this.o.users.findById(auth.userId);
    if (!user) throw gone();
    return user;
  }
}

/** A readable default device name from the user agent ("Firefox on Linux"), never empty. */
export function deviceNameOf(userAgent: string): string {
  const { browser, os } = browserAndSystemOf(userAgent);
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? 'Web browser';
}
