import { z } from './z.ts';
import { ChallengeSolution, Session, UserIdParams } from './accounts.ts';
import {
  MAX_PROFILES,
  PASSWORD_MIN_LENGTH,
  PROFILE_PIN_MAX_LENGTH,
  PROFILE_PIN_MIN_LENGTH,
  profileIcons,
} from './customer-paths.ts';
import { ContentLimit } from './content-limit.ts';
import { defineEndpoint } from './endpoint.ts';
import { customerRoutes } from './routes.ts';

/*
 * Email accounts and household profiles: the customer backend the older subscription client speaks
 * (field names as it sends and reads them: `fullname`, `_id`, `endSubcriptionDate`). Failures answer the
 * HTTP status with the usual error body `{errorType, code, message}` (errors.ts); `message` is meant to be shown.
 * Decision: docs/decisions/040-customer-api.md.
 */

export const ProfileIconSchema = z.enum(profileIcons);

export const CustomerProfile = z.object({
  _id: z.string(),
  fullname: z.string(),
  icon: ProfileIconSchema,
  /** The profile has a PIN (decision 104); servers before it omit the field. */
  hasPin: z.boolean().optional(),
  /** A kids' profile's content limit (decision 106); null or absent (servers before it) for others. */
  kids: ContentLimit.nullable().optional(),
});
export type CustomerProfile = z.infer<typeof CustomerProfile>;

/** The user as the older client reads it. Passphrase accounts have the same shape (email null, fullname ''). */
export const CustomerUser = z.object({
  id: z.string(),
  fullname: z.string(),
  email: z.string().nullable(),
  /** One of the six profile icons for email accounts; a passphrase account's own icon otherwise. */
  icon: z.string(),
  /** The account's own profile has a PIN (decision 104); servers before it omit the field. */
  hasPin: z.boolean().optional(),
  /** The household profiles besides the account's own (whose library is selected by no X-Profile-Id). */
  profiles: z.array(CustomerProfile),
  isAdmin: z.boolean(),
  /** When the membership ends (ISO instant), also once it has ended; null when there never was one. */
  endSubcriptionDate: z.string().nullable(),
  /** endSubcriptionDate is in the future. */
  hasMembership: z.boolean(),
});
export type CustomerUser = z.infer<typeof CustomerUser>;

const Fullname = z.string().trim().min(1, 'Full name is required').max(100);
/**
 * A passphrase account's profile name, sealed on the device with the account's key as its device names
 * are (base64(iv).base64(ciphertext).base64(tag), decision 108): the server stores it unread.
 */
export const SEALED_NAME_MAX_LENGTH = 600;
const sealedNamePattern = /^[A-Za-z0-9+/]+={0,2}\.[A-Za-z0-9+/]*={0,2}\.[A-Za-z0-9+/]+={0,2}$/;
/** Whether `name` has the sealed form (it says nothing of whether it opens). */
export const isSealedName = (name: string): boolean =>
  name.length <= SEALED_NAME_MAX_LENGTH && sealedNamePattern.test(name);
const SealedName = z.string().max(SEALED_NAME_MAX_LENGTH).regex(sealedNamePattern);
/** A profile name: plain (email accounts) or sealed (passphrase accounts); the server checks which. */
export const ProfileName = z.union([Fullname, SealedName]);
const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must have at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(1024);

export const CustomerRegisterBody = z.object({
  fullname: Fullname,
  email: z.string().trim().max(254).pipe(z.email('Email is not valid')),
  password: Password,
  /** The captcha widget's token, when the instance has a captcha (runtime config `captcha`). */
  captchaToken: z.string().max(8192).optional(),
});
export const CustomerAuthBody = z.object({
  email: z.string().max(320),
  password: z.string().max(1024),
  /** Shown in the session list; defaults to the browser's user agent. */
  device: z.string().max(500).optional(),
});
export const CustomerAuthResponse = z.object({
  user: CustomerUser,
  token: z.string(),
  session: Session,
  /**
   * Failed sign-in attempts on this account since its last successful sign-in (any address, last 14
   * days): a notice for the owner that someone tried their password. Servers before decision 070 omit it.
   */
  failedSignIns: z.number().int().nonnegative().optional(),
});
export type CustomerAuthResponse = z.infer<typeof CustomerAuthResponse>;
/** The older clients' customer login: GET /customers with the X-auth-token header. */
export const CustomerMeResponse = z.object({ user: CustomerUser, access_token: z.string() });

/**
 * `kids`: the profile's content limit (a kids' profile), null for none; absent leaves it as it is (the
 * older client knows no kids' profiles).
 */
const KidsLimit = ContentLimit.nullable().optional();
export const ProfileInput = z.object({ fullname: ProfileName, icon: ProfileIconSchema, kids: KidsLimit });
/** A profile in the list of `update`: with `_id` it changes that profile, without it adds one. */
export const ProfileListItem = ProfileInput.extend({ _id: z.string().max(64).optional() });
export const CustomerUpdateBody = z.object({
  fullname: ProfileName.optional(),
  icon: ProfileIconSchema.optional(),
  /**
   * When present, the complete list of household profiles: profiles left out are deleted with their
   * library. Absent = profiles unchanged.
   */
  profiles: z.array(ProfileListItem).max(MAX_PROFILES).optional(),
});
export const ProfilePatchBody = z.object({
  fullname: ProfileName.optional(),
  icon: ProfileIconSchema.optional(),
  kids: KidsLimit,
});
export const ProfileParams = UserIdParams.extend({ profileId: z.string().min(1).max(64) });

/** Which profile: a household profile's `_id`, or '' for the account's own. */
const PinProfileId = z.string().max(64);
export const ProfilePin = z
  .string()
  .regex(
    new RegExp(`^[0-9]{${PROFILE_PIN_MIN_LENGTH},${PROFILE_PIN_MAX_LENGTH}}$`),
    `A PIN is ${PROFILE_PIN_MIN_LENGTH} to ${PROFILE_PIN_MAX_LENGTH} digits`,
  );
export const ProfilePinBody = z.object({
  profileId: PinProfileId,
  /** The new PIN, or null to remove the lock. */
  pin: ProfilePin.nullable(),
  /** Proof that the owner is asking: the profile's current PIN (when it has one) … */
  currentPin: z.string().max(16).optional(),
  /** … or the account's password (always accepted; the only proof for a profile without a PIN) … */
  password: z.string().max(1024).optional(),
  /**
   * … or, for a passphrase account, its 12 words: the account's key signed a login challenge just
   * issued (`loginStart`, a fresh sign-in; decision 108).
   */
  proof: z.object({ publicKey: z.string().min(1).max(128), challenge: ChallengeSolution }).optional(),
});
export const ProfileUnlockBody = z.object({ profileId: PinProfileId, pin: z.string().max(16) });
export const ProfileUnlockResponse = z.object({
  profileId: z.string(),
  /** Send it as X-Profile-Token with this profile's calls from this device (it is bound to the session). */
  token: z.string(),
  expiresAt: z.string(),
});
export type ProfileUnlockResponse = z.infer<typeof ProfileUnlockResponse>;

/** Which profile this device now shows: a household profile's `_id`, or '' for the account's own. */
export const ProfileEnterBody = z.object({ profileId: PinProfileId });
export const ProfileEnterResponse = z.object({
  profileId: z.string(),
  /** The profile's limit when it is a kids' profile (this device is then that kid's), else null. */
  kids: ContentLimit.nullable(),
});
export type ProfileEnterResponse = z.infer<typeof ProfileEnterResponse>;

export const CustomerPasswordBody = z.object({ password: Password, confirm: z.string().max(1024) });

export const CustomerUserResponse = z.object({ user: CustomerUser });
export const ProfileResponse = z.object({ user: CustomerUser, profile: CustomerProfile });
export const CustomerMessageResponse = z.object({
  user: CustomerUser,
  message: z.string(),
  error: z.literal(false),
});

export const customerEndpoints = {
  register: defineEndpoint({
    ...customerRoutes.register,
    summary: 'Register an email account (then sign in with POST /customers/auth)',
    auth: 'none',
    tags: ['customers'],
    errors: {
      400: ['captcha_required', 'captcha_invalid'],
      409: ['email_taken'],
      429: ['rate_limited'],
      503: ['captcha_unavailable'],
    },
    body: CustomerRegisterBody,
    response: CustomerMessageResponse,
  }),
  login: defineEndpoint({
    ...customerRoutes.login,
    summary: 'Sign in with email and password; the token is a bearer token for every signed-in route',
    auth: 'none',
    tags: ['customers'],
    errors: { 401: ['invalid_credentials'], 429: ['rate_limited'] },
    body: CustomerAuthBody,
    response: CustomerAuthResponse,
  }),
  me: defineEndpoint({
    ...customerRoutes.me,
    summary: 'The signed-in customer (token as X-auth-token or Authorization: Bearer)',
    auth: 'session',
    kids: 'allowed',
    tags: ['customers'],
    response: CustomerMeResponse,
  }),
  update: defineEndpoint({
    ...customerRoutes.update,
    summary: 'Change your name and icon and, with `profiles`, replace your household profiles',
    auth: 'session',
    tags: ['customers'],
    errors: { 400: ['profile_name_form'], 403: ['profile_locked'], 404: ['profile_not_found'] },
    params: UserIdParams,
    body: CustomerUpdateBody,
    response: CustomerUserResponse,
  }),
  password: defineEndpoint({
    ...customerRoutes.password,
    summary: 'Change your password (signs your other sessions out)',
    auth: 'session',
    tags: ['customers'],
    errors: { 400: ['password_mismatch', 'wrong_account_kind'] },
    params: UserIdParams,
    body: CustomerPasswordBody,
    response: CustomerMessageResponse,
  }),
  createProfile: defineEndpoint({
    ...customerRoutes.createProfile,
    summary: 'Add a household profile (its library starts empty)',
    auth: 'session',
    tags: ['customers'],
    errors: { 400: ['profile_name_form'], 409: ['profile_limit'] },
    params: UserIdParams,
    body: ProfileInput,
    response: ProfileResponse,
  }),
  patchProfile: defineEndpoint({
    ...customerRoutes.patchProfile,
    summary: 'Rename a household profile or change its icon',
    auth: 'session',
    tags: ['customers'],
    errors: { 400: ['profile_name_form'], 403: ['profile_locked'], 404: ['profile_not_found'] },
    params: ProfileParams,
    body: ProfilePatchBody,
    response: ProfileResponse,
  }),
  deleteProfile: defineEndpoint({
    ...customerRoutes.deleteProfile,
    summary: 'Delete a household profile and its library',
    auth: 'session',
    tags: ['customers'],
    errors: { 403: ['profile_locked'], 404: ['profile_not_found'] },
    params: ProfileParams,
    response: CustomerUserResponse,
  }),
  setProfilePin: defineEndpoint({
    ...customerRoutes.setProfilePin,
    summary:
      "Set, change or remove a profile's PIN (with its current PIN, the account's password or, for a passphrase account, its 12 words' proof); other devices must enter the new PIN",
    auth: 'session',
    tags: ['customers'],
    errors: {
      400: ['wrong_account_kind'],
      403: ['pin_proof_required', 'pin_incorrect', 'password_incorrect', 'words_incorrect'],
      404: ['profile_not_found'],
      429: ['rate_limited'],
    },
    params: UserIdParams,
    body: ProfilePinBody,
    response: CustomerUserResponse,
  }),
  unlockProfile: defineEndpoint({
    ...customerRoutes.unlockProfile,
    summary:
      'Open a PIN-locked profile on this device: a token for its calls, for 12 hours (wrong PINs are throttled)',
    auth: 'session',
    kids: 'allowed',
    tags: ['customers'],
    errors: { 403: ['pin_incorrect'], 404: ['profile_not_found'], 429: ['rate_limited'] },
    params: UserIdParams,
    body: ProfileUnlockBody,
    response: ProfileUnlockResponse,
  }),
  enterProfile: defineEndpoint({
    ...customerRoutes.enterProfile,
    summary:
      "This device shows a profile: entering a kids' profile keeps it to the kid's limits until it enters another, which needs that profile's PIN (X-Profile-Token) when it has one",
    auth: 'session',
    kids: 'allowed',
    tags: ['customers'],
    errors: { 403: ['profile_locked'], 404: ['profile_not_found'] },
    params: UserIdParams,
    body: ProfileEnterBody,
    response: ProfileEnterResponse,
  }),
} as const;
