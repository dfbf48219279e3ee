import { z } from './z.ts';
import { UserIdParams } from './accounts.ts';
import { CustomerUser } from './customers.ts';
import { PROMO_RATE_MAX, PROMO_RATE_MIN } from './customer-paths.ts';
import { defineEndpoint } from './endpoint.ts';
import { membershipRoutes } from './routes.ts';
import { ErrorCode } from './errors.ts';

/*
 * Memberships paid through a crypto gateway, promo codes and the admin self-test. The older subscription client's
 * field names (`criptoName`, `crypto_list`, `display_name`, `isUsed`) are kept on the wire.
 * Decision: docs/decisions/041-membership-payments.md.
 */

export const Plan = z.object({
  id: z.number().int(),
  /** Months of membership the plan buys. */
  duration: z.number().int().positive(),
  /** Price of the whole plan in `currency`. */
  cost: z.number().positive(),
  /** The period the price is quoted per on screen ("$30 per year", "$2.99 per month"). */
  pref: z.enum(['month', 'year']),
  currency: z.string(),
  /** cost / duration, rounded to cents: what a banner advertising "from $x a month" shows. */
  monthlyCost: z.number(),
});
export type Plan = z.infer<typeof Plan>;
export const PlansResponse = z.object({ plans: z.array(Plan) });

export const CryptoOption = z.object({ name: z.string(), display_name: z.string() });
export type CryptoOption = z.infer<typeof CryptoOption>;
export const CryptoListResponse = z.object({ crypto_list: z.array(CryptoOption) });

export const PaymentStatus = z.enum(['pending', 'paid', 'superseded', 'failed']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

export const Payment = z.object({
  id: z.string(),
  planId: z.number(),
  /** Months this payment adds once paid. */
  duration: z.number(),
  crypto: z.string(),
  cryptoDisplayName: z.string(),
  /** Amount due in the crypto (as the gateway computed it), null if the gateway gave none. */
  cryptoAmount: z.string().nullable(),
  wallet: z.string().nullable(),
  /** Fiat amount due after the promo discount, e.g. "27.00". */
  amount: z.string(),
  currency: z.string(),
  discountRate: z.number().int(),
  promoCode: z.string().nullable(),
  /**
   * pending: waiting for the gateway; paid: membership extended; superseded: a newer payment request of
   * the same user replaced it (its QR code is no longer shown; money still arriving is still honoured);
   * failed: the gateway refused to create it.
   */
  status: PaymentStatus,
  gateway: z.enum(['simulated', 'shkeeper']),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type Payment = z.infer<typeof Payment>;

export const SubscriptionBody = z.object({
  planId: z.union([z.number().int(), z.string().regex(/^\d{1,9}$/)]),
  /** The crypto `name` from the crypto list (the older client's spelling; `cryptoName` is accepted too). */
  criptoName: z.string().max(64).nullish(),
  cryptoName: z.string().max(64).nullish(),
  /** A promo code checked with GET /promos/:code, or null. */
  code: z.string().max(64).nullish(),
});
export const SubscriptionResponse = z.object({
  wallet: z.string(),
  /** The payment as a QR image (PNG data URL) to scan with a wallet app. */
  paymentUrl: z.string(),
  user: CustomerUser,
  error: z.literal(false),
  errorType: z.null(),
  /** Shown with the QR code: older unpaid payment links of this account no longer count. */
  message: z.string(),
  payment: Payment,
});
export type SubscriptionResponse = z.infer<typeof SubscriptionResponse>;

export const MembershipResponse = z.object({
  active: z.boolean(),
  endSubcriptionDate: z.string().nullable(),
  /** The latest pending payment (the one whose QR code is still valid), if any. */
  pendingPayment: Payment.nullable(),
});
export const PaymentParams = z.object({ paymentId: z.string().min(1).max(64) });
export const PaymentResponse = z.object({ payment: Payment, membership: MembershipResponse });

// ---- promo codes ----

export const Promo = z.object({
  code: z.string(),
  rate: z.number().int(),
  isUsed: z.boolean(),
  /** Held by a payment request that has not been paid yet (released when it is superseded or expires). */
  isReserved: z.boolean(),
  createdAt: z.string(),
  usedAt: z.string().nullable(),
});
export type Promo = z.infer<typeof Promo>;
export const PromoListResponse = z.object({ codes: z.array(Promo) });
/** `rate` percent, integer; absent, null or "" = the default (10). */
export const PromoCreateBody = z
  .object({
    rate: z
      .union([z.number().int().min(PROMO_RATE_MIN).max(PROMO_RATE_MAX), z.literal(''), z.null()])
      .optional(),
  })
  .nullish();
export const PromoCreateResponse = z.object({ codes: z.array(Promo), created: Promo });
export const PromoParams = z.object({ code: z.string().min(1).max(64) });
/**
 * Decision 041: `code` {isUsed, rate} (null when unknown), a message to show, and `error` when the code
 * cannot be used; `errorCode` (ours) says why.
 */
export const PromoCheckResponse = z.object({
  code: z.object({ code: z.string(), isUsed: z.boolean(), rate: z.number().int() }).nullable(),
  message: z.string(),
  error: z.boolean(),
  errorCode: ErrorCode.nullable(),
});
export type PromoCheckResponse = z.infer<typeof PromoCheckResponse>;

// ---- admin: payments (decision 073) ----

/** How the gateway's reported balance compared with what was due (1 %, at least 0.01, counts as exact). */
export const PaymentSettlement = z.enum(['exact', 'underpaid', 'overpaid']);
export const AdminPayment = Payment.extend({
  userId: z.string(),
  email: z.string().nullable(),
  /** The plan's price before the promo discount (null on payments made before it was recorded). */
  listAmount: z.string().nullable(),
  /** What the balance was checked against: `amount`, or `listAmount` when the payer had used the code already. */
  dueAmount: z.string().nullable(),
  /** The balance the gateway last reported, in `currency`. */
  balance: z.string().nullable(),
  /** null until the gateway reports money. */
  settlement: PaymentSettlement.nullable(),
  settledAt: z.string().nullable(),
});
export type AdminPayment = z.infer<typeof AdminPayment>;
export const AdminPaymentsQuery = z.object({
  /** `mismatched` = underpaid or overpaid. */
  settlement: z.enum(['exact', 'underpaid', 'overpaid', 'mismatched']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const AdminPaymentsResponse = z.object({ payments: z.array(AdminPayment) });

// ---- admin self-test ----

export const SelfTestCheck = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['pass', 'fail', 'skip']),
  /** Why it passed or failed, in a sentence an operator can act on. */
  reason: z.string(),
  durationMs: z.number(),
});
export type SelfTestCheck = z.infer<typeof SelfTestCheck>;
/** The most recent TMDB calls of the answering server process (decision 082): latency and errors. */
export const TmdbCallStats = z.object({
  /** How many calls the figures cover (the most recent, at most 200). */
  calls: z.number().int(),
  /** Median and 95th percentile of how long a call took (both hosts and a 429 retry included); null with no calls. */
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  /** Calls the fallback host answered. */
  fallbackAnswers: z.number().int(),
  /** Failed calls by error code (`metadata_unavailable`, `metadata_rate_limited`, …). */
  errors: z.record(z.string(), z.number().int()),
  /** The last failure since the process started: when, its code, and what each host did. */
  lastError: z.object({ at: z.string(), code: z.string(), message: z.string() }).nullable(),
});
export type TmdbCallStats = z.infer<typeof TmdbCallStats>;
export const SelfTestResponse = z.object({
  /** Every check passed or was skipped. */
  ok: z.boolean(),
  startedAt: z.string(),
  durationMs: z.number(),
  /** Configuration values (never secrets: those show as "set" / "not set"). */
  config: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  checks: z.array(SelfTestCheck),
  /** TMDB's recent latency and errors; null when the embedded catalog is the metadata source. */
  tmdb: TmdbCallStats.nullable(),
});
export type SelfTestResponse = z.infer<typeof SelfTestResponse>;

// ---- admin: the media library scanner (decision 085) ----

/** Why a file under a library folder is not in the index. */
export const LibrarySkipReason = z.enum([
  /** A link whose target is outside the library folders (decision 071). */
  'outside_library',
  /** Its content is not a video container (ffprobe cannot read it, or its first bytes are not media). */
  'not_video',
  /** ffprobe reads it but it holds no video stream (music, a picture). */
  'no_video_stream',
  /** Neither MP4 nor Matroska, and this server has no ffprobe to read other formats. */
  'needs_ffprobe',
  /** Named like subtitles, but its content is not. */
  'not_subtitles',
  /** ffprobe did not answer (missing, too slow): tried again at the next scan. */
  'probe_failed',
]);
export type LibrarySkipReason = z.infer<typeof LibrarySkipReason>;
export const LibrarySkippedFile = z.object({
  path: z.string(),
  reason: LibrarySkipReason,
  /** ffprobe's message, a link's target, … */
  detail: z.string().nullable(),
});
export type LibrarySkippedFile = z.infer<typeof LibrarySkippedFile>;
export const LibraryStatusResponse = z.object({
  /** MEDIA_LIBRARY_DIR is set: without it everything else is zero. */
  configured: z.boolean(),
  scanning: z.boolean(),
  /** When the running scan (or else the last one) started; null before the first. */
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  /** In the index (the last finished scan). */
  videos: z.number().int(),
  movies: z.number().int(),
  shows: z.number().int(),
  subtitles: z.number().int(),
  /** Files looked at, files ffprobe ran on, and ffprobe failures: of the running scan, or else the last. */
  checked: z.number().int(),
  probed: z.number().int(),
  probeFailures: z.number().int(),
  /** The last 50 files the last scan skipped, and how many it skipped in all. */
  skipped: z.array(LibrarySkippedFile),
  skippedCount: z.number().int(),
  /** Changes in the folders start a scan (LIBRARY_WATCH). */
  watching: z.boolean(),
  /** ffprobe reads the files: every container ffmpeg reads is indexed (else MP4 and Matroska only). */
  probing: z.boolean(),
});
export type LibraryStatusResponse = z.infer<typeof LibraryStatusResponse>;

export const membershipEndpoints = {
  plans: defineEndpoint({
    ...membershipRoutes.plans,
    summary: 'Membership plans of this instance',
    auth: 'none',
    tags: ['membership'],
    response: PlansResponse,
  }),
  cryptoList: defineEndpoint({
    ...membershipRoutes.cryptoList,
    summary: 'Cryptocurrencies the payment gateway accepts now',
    auth: 'none',
    tags: ['membership'],
    errors: { 502: ['payment_gateway_unavailable'], 503: ['payment_gateway_unavailable'] },
    response: CryptoListResponse,
  }),
  cryptoListAlias: defineEndpoint({
    ...membershipRoutes.cryptoListAlias,
    summary: 'Same as /shkeeper/list-cripto',
    auth: 'none',
    tags: ['membership'],
    errors: { 502: ['payment_gateway_unavailable'], 503: ['payment_gateway_unavailable'] },
    response: CryptoListResponse,
  }),
  subscribe: defineEndpoint({
    ...membershipRoutes.subscribe,
    summary: 'Start a membership payment: wallet and QR code (replaces your older unpaid payment request)',
    auth: 'session',
    tags: ['membership'],
    errors: {
      400: ['bad_request', 'plan_not_found', 'crypto_required'],
      404: ['promo_not_found'],
      409: ['promo_used', 'promo_reserved', 'promo_already_used'],
      429: ['rate_limited'],
      502: ['payment_gateway_unavailable'],
      503: ['payment_gateway_unavailable'],
    },
    params: UserIdParams,
    body: SubscriptionBody,
    response: SubscriptionResponse,
  }),
  subscribeAlias: defineEndpoint({
    ...membershipRoutes.subscribeAlias,
    summary: 'Same as /customers/:uid/suscription',
    auth: 'session',
    tags: ['membership'],
    errors: {
      400: ['bad_request', 'plan_not_found', 'crypto_required'],
      404: ['promo_not_found'],
      409: ['promo_used', 'promo_reserved', 'promo_already_used'],
      429: ['rate_limited'],
      502: ['payment_gateway_unavailable'],
      503: ['payment_gateway_unavailable'],
    },
    params: UserIdParams,
    body: SubscriptionBody,
    response: SubscriptionResponse,
  }),
  membership: defineEndpoint({
    ...membershipRoutes.membership,
    summary: 'Your membership and pending payment',
    auth: 'session',
    tags: ['membership'],
    response: MembershipResponse,
  }),
  payment: defineEndpoint({
    ...membershipRoutes.payment,
    summary: 'One of your payments (poll while its QR code is shown)',
    auth: 'session',
    tags: ['membership'],
    errors: { 404: ['payment_not_found'] },
    params: PaymentParams,
    response: PaymentResponse,
  }),
  simulatePaid: defineEndpoint({
    ...membershipRoutes.simulatePaid,
    summary: 'Simulated gateway only: pay one of your payments (sends the signed gateway callback)',
    auth: 'session',
    tags: ['membership'],
    errors: { 404: ['payment_not_found'], 409: ['bad_request'], 502: ['payment_gateway_unavailable'] },
    params: PaymentParams,
    response: PaymentResponse,
  }),
  promos: defineEndpoint({
    ...membershipRoutes.promos,
    summary: 'Admins: every promo code, newest first',
    auth: 'admin',
    tags: ['membership'],
    response: PromoListResponse,
  }),
  createPromo: defineEndpoint({
    ...membershipRoutes.createPromo,
    summary: 'Admins: create a promo code (rate percent, default 10)',
    auth: 'admin',
    tags: ['membership'],
    body: PromoCreateBody,
    response: PromoCreateResponse,
  }),
  checkPromo: defineEndpoint({
    ...membershipRoutes.checkPromo,
    summary: 'Can this promo code be used for a payment now?',
    auth: 'session',
    tags: ['membership'],
    errors: { 429: ['rate_limited'] },
    params: PromoParams,
    response: PromoCheckResponse,
  }),
  adminPayments: defineEndpoint({
    ...membershipRoutes.adminPayments,
    summary: 'Admins: payments, newest first, with what the gateway reported (under- and overpayments)',
    auth: 'admin',
    tags: ['admin'],
    query: AdminPaymentsQuery,
    response: AdminPaymentsResponse,
  }),
  selfTest: defineEndpoint({
    ...membershipRoutes.selfTest,
    summary: 'Admins: check configuration, database, metadata, Redis, payment gateway and providers',
    auth: 'admin',
    tags: ['admin'],
    response: SelfTestResponse,
  }),
  libraryStatus: defineEndpoint({
    ...membershipRoutes.libraryStatus,
    summary: 'Admins: the media library scanner — counts, last scan, progress, skipped files',
    auth: 'admin',
    tags: ['admin'],
    response: LibraryStatusResponse,
  }),
  libraryScan: defineEndpoint({
    ...membershipRoutes.libraryScan,
    summary: 'Admins: scan the media library now (202 with the status; a running scan is not started twice)',
    auth: 'admin',
    tags: ['admin'],
    successStatus: 202,
    response: LibraryStatusResponse,
  }),
} as const;
