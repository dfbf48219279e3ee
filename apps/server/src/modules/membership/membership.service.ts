import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { AdminPayment, CryptoOption, Payment, Plan, SubscriptionResponse } from '@marquee/contract';
import type { Database, PaymentSettlement } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { AuthContext, SessionAuthenticator } from '../../plugins/auth.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { UserAccountsService } from '../users/user-accounts.service.ts';
import type { MembershipRepository, PaymentRow } from './membership.repository.ts';
import {
  compactSortedJson,
  signCallback,
  verifyCallback,
  type GatewayNotification,
  type Invoice,
  type PaymentGateway,
} from './payment-gateway.ts';
import { addMonths, discountedAmount } from './plans.ts';
import type { PromosRepository } from './promos.repository.ts';
import { normalisePromoCode, PROMO_ALREADY_USED_MESSAGE, PROMO_RESERVATION_MS } from './promos.service.ts';
import { paymentUri, qrDataUrl } from './qr.ts';
import { fiatMicros, formatFiat, settle, undiscounted, type Verdict } from './settlement.ts';

/** Shown with every new payment request (decision 041). */
export const SUPERSEDE_WARNING =
  'Payment links you generated earlier and have not paid are no longer valid: pay only with this one.';

export interface MembershipServiceOptions {
  db: Kysely<Database>;
  users: UserAccountsService;
  repo: MembershipRepository;
  promos: PromosRepository;
  customers: CustomersService;
  gateway: PaymentGateway;
  plans: Plan[];
  currency: string;
  /** PUBLIC_URL, else the origin of the request that asked for the payment. */
  publicUrl: string | undefined;
  callbackPath: string;
  variant: 'discovery' | 'subscription';
  freeMovieTmdbId: string | undefined;
  authenticator: SessionAuthenticator;
  now: () => number;
  log: FastifyBaseLogger;
}

/** What a payment request names (`criptoName`: the older client's spelling; decision 041). */
interface SubscribeInput {
  planId: number | string;
  criptoName?: string | null | undefined;
  cryptoName?: string | null | undefined;
  code?: string | null | undefined;
}

export type CallbackOutcome = 'applied' | 'already_paid' | 'underpaid' | 'recorded' | 'ignored';

/** A paid notification whose balance does not cover what is due: the transaction is rolled back. */
class NotCovered extends Error {
  constructor(
    readonly due: string,
    readonly verdict: Verdict,
  ) {
    super('the paid amount does not cover the invoice');
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

export function toPaymentDto(row: PaymentRow): Payment {
  return {
    id: row.id,
    planId: row.plan_id,
    duration: row.duration_months,
    crypto: row.crypto,
    cryptoDisplayName: row.crypto_display_name,
    cryptoAmount: row.crypto_amount,
    wallet: row.wallet,
    amount: row.amount,
    currency: row.currency,
    discountRate: row.discount_rate,
    promoCode: row.promo_code,
    status: row.status,
    gateway: row.gateway,
    createdAt: iso(row.created_at),
    paidAt: row.paid_at === null ? null : iso(row.paid_at),
  };
}

const paymentNotFound = () => new AppError(404, 'payment_not_found', 'Payment not found');
const promoAlreadyUsed = () => new AppError(409, 'promo_already_used', PROMO_ALREADY_USED_MESSAGE);

/**
 * Memberships: payment requests through the gateway (with promo codes), the gateway's callbacks
 * (membership end = max(now, current end) + plan duration, exactly once per paid invoice), and the
 * playback gate of the subscription variant. Decision 041.
 */
export class MembershipService {
  constructor(private readonly o: MembershipServiceOptions) {}

  get plans(): Plan[] {
    return this.o.plans;
  }

  get gatewayKind(): PaymentGateway['kind'] {
    return this.o.gateway.kind;
  }

  gatewayHealth() {
    return this.o.gateway.health();
  }

  cryptoList(): Promise<CryptoOption[]> {
    return this.o.gateway.listCryptos();
  }

  async membershipOf(
    userId: string,
  ): Promise<{ active: boolean; endSubcriptionDate: string | null; pendingPayment: Payment | null }> {
    const [endsAt, pending] = await Promise.all([
      this.o.repo.endOf(userId),
      this.o.repo.latestPending(userId),
    ]);
    return {
      active: endsAt !== null && endsAt > this.o.now(),
      endSubcriptionDate: endsAt === null ? null : iso(endsAt),
      pendingPayment: pending ? toPaymentDto(pending) : null,
    };
  }

  /** Every payment (or those settled a given way) for the admins, newest first. */
  async paymentsForAdmin(query: {
    settlement?: PaymentSettlement | 'mismatched' | undefined;
    limit: number;
  }): Promise<AdminPayment[]> {
    const settlements: PaymentSettlement[] | undefined =
      query.settlement === 'mismatched'
        ? ['underpaid', 'overpaid']
        : query.settlement
          ? [query.settlement]
          : undefined;
    const rows = await this.o.repo.listForAdmin({
      ...(settlements ? { settlements } : {}),
      limit: query.limit,
    });
    return rows.map((row) => ({
      ...toPaymentDto(row),
      userId: row.user_id,
      email: row.email,
      listAmount: row.list_amount,
      dueAmount: row.due_fiat,
      balance: row.balance_fiat,
      settlement: row.settlement,
      settledAt: row.settlement_at === null ? null : iso(row.settlement_at),
    }));
  }

  async paymentOf(userId: string, paymentId: string) {
    const row = await this.o.repo.findPayment(paymentId);
    if (!row || row.user_id !== userId) throw paymentNotFound();
    return { payment: toPaymentDto(row), membership: await this.membershipOf(userId) };
  }

  /**
   * A new payment request: reserves the promo code (one winner among concurrent requests), asks the
   * gateway for an invoice, then supersedes the user's older unpaid requests and releases their codes.
   */
  async subscribe(
    auth: AuthContext,
    input: SubscribeInput,
    requestOrigin: string,
  ): Promise<SubscriptionResponse> {
    const { crypto, plan, code } = this.subscriptionChoice(input);
    const now = this.o.now();
    const rate = code ? await this.promoRate(code, auth.userId, now) : 0;
    const payment = this.newPayment({ userId: auth.userId, plan, crypto, code, rate, now });

    if (Number(payment.amount) === 0) return this.payInFullWithPromo(auth, payment);

    await this.insertReserving(payment, code, now);
    const invoice = await this.requestInvoice(payment, requestOrigin);
    const current = await this.recordInvoice(payment, invoice);
    return {
      wallet: invoice.wallet,
      paymentUrl: await qrDataUrl(
        paymentUri(crypto, invoice.wallet, invoice.cryptoAmount, invoice.paymentUri),
      ),
      user: await this.o.customers.customerById(auth.userId),
      error: false,
      errorType: null,
      message: SUPERSEDE_WARNING,
      payment: toPaymentDto(current),
    };
  }

  /** The request checked: a well-formed crypto name, a plan of ours, the promo code normalised. */
  private subscriptionChoice(input: SubscribeInput): { crypto: string; plan: Plan; code: string } {
    const crypto = (input.criptoName ?? input.cryptoName ?? '').trim();
    if (!crypto)
      throw new AppError(
        400,
        'crypto_required',
        'You have to select the cripto before starting payment process.',
      );
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(crypto))
      throw new AppError(400, 'bad_request', 'Unknown cryptocurrency');
    const plan = this.o.plans.find((p) => p.id === Number(input.planId));
    if (!plan) throw new AppError(400, 'plan_not_found', 'This plan does not exist');
    const code = input.code ? normalisePromoCode(input.code) : '';
    return { crypto, plan, code };
  }

  /** A promo code's discount rate, unless it is unknown, used, or already used by this user. */
  private async promoRate(code: string, userId: string, now: number): Promise<number> {
    const promo = await this.o.promos.find(code);
    if (!promo) throw new AppError(404, 'promo_not_found', 'promo code not found');
    if (promo.is_used) throw new AppError(409, 'promo_used', 'promo code already used');
    if (await this.o.promos.usedByUser(code, userId, now - PROMO_RESERVATION_MS)) throw promoAlreadyUsed();
    return promo.rate;
  }

  private newPayment(request: {
    userId: string;
    plan: Plan;
    crypto: string;
    code: string;
    rate: number;
    now: number;
  }): PaymentRow {
    const { userId, plan, crypto, code, rate, now } = request;
    return {
      id: randomUUID(),
      user_id: userId,
      plan_id: plan.id,
      duration_months: plan.duration,
      amount: discountedAmount(plan.cost, rate),
      currency: this.o.currency,
      discount_rate: rate,
      promo_code: code || null,
      crypto,
      crypto_display_name: crypto,
      crypto_amount: null,
      wallet: null,
      gateway: this.o.gateway.kind,
      gateway_invoice_id: null,
      status: 'pending',
      balance_fiat: null,
      created_at: now,
      paid_at: null,
      list_amount: discountedAmount(plan.cost, 0),
      due_fiat: null,
      settlement: null,
      settlement_at: null,
    };
  }

  /** Inserts the pending payment and reserves its promo code, if any, in one transaction. */
  private async insertReserving(payment: PaymentRow, code: string, now: number): Promise<void> {
    // The user's row is locked first everywhere (here, in a 100 % code's payment, in the paid callback).
    const reserved = await this.o.db.transaction().execute(async (trx) => {
      await this.stampCreation(trx, payment);
      // Under the user's lock: of two concurrent requests of one user with one code, the second sees the first.
      if (code && (await this.o.promos.usedByUser(code, payment.user_id, now - PROMO_RESERVATION_MS, trx)))
        return 'already_used';
      if (code && !(await this.o.promos.reserve(code, payment.id, now, now + PROMO_RESERVATION_MS, trx)))
        return 'refused';
      await this.o.repo.insertPayment(payment, trx);
      return 'reserved';
    });
    // (Outside the transaction: SQLite has one connection, and the transaction holds it.)
    if (reserved === 'already_used') throw promoAlreadyUsed();
    if (reserved === 'refused') throw await this.promoRefusal(code);
  }

  /** The gateway's invoice; when the gateway fails, the payment fails and its code is released. */
  private async requestInvoice(payment: PaymentRow, requestOrigin: string): Promise<Invoice> {
    try {
      return await this.o.gateway.createInvoice({
        externalId: payment.id,
        crypto: payment.crypto,
        fiat: payment.currency,
        amount: payment.amount,
        callbackUrl: `${(this.o.publicUrl ?? requestOrigin).replace(/\/+$/, '')}${this.o.callbackPath}`,
      });
    } catch (error) {
      await this.o.repo.markFailed(payment.id);
      await this.o.promos.release([payment.id]);
      throw error;
    }
  }

  /** Stores the invoice on the payment and supersedes the user's older requests; the payment as stored. */
  private async recordInvoice(payment: PaymentRow, invoice: Invoice): Promise<PaymentRow> {
    const filled: PaymentRow = {
      ...payment,
      wallet: invoice.wallet,
      crypto_amount: invoice.cryptoAmount,
      crypto_display_name: invoice.displayName,
      gateway_invoice_id: invoice.invoiceId,
    };
    await this.o.db.transaction().execute(async (trx) => {
      await this.o.repo.setInvoice(
        payment.id,
        {
          wallet: invoice.wallet,
          crypto_amount: invoice.cryptoAmount,
          crypto_display_name: invoice.displayName,
          gateway_invoice_id: invoice.invoiceId,
        },
        trx,
      );
      // Superseded requests keep their promo codes: money still arriving for them is honoured.
      await this.o.repo.supersedeOlder(payment, trx);
    });
    return (await this.o.repo.findPayment(payment.id)) ?? filled;
  }

  /** A 100 % promo code: nothing to pay, so no invoice: the membership starts now and the code is used. */
  private async payInFullWithPromo(auth: AuthContext, payment: PaymentRow): Promise<SubscriptionResponse> {
    const now = payment.created_at;
    const paid: PaymentRow = {
      ...payment,
      status: 'paid',
      paid_at: now,
      wallet: '',
      due_fiat: payment.amount,
      settlement: 'exact',
      settlement_at: now,
    };
    const code = payment.promo_code!;
    const consumed = await this.o.db.transaction().execute(async (trx) => {
      await this.stampCreation(trx, paid);
      if (await this.o.promos.usedByUser(code, payment.user_id, now - PROMO_RESERVATION_MS, trx))
        return 'already_used';
      if (!(await this.o.promos.consume(code, payment.id, payment.user_id, now, trx))) return 'refused';
      await this.o.repo.insertPayment(paid, trx);
      await this.extend(trx, payment.user_id, payment.duration_months, now);
      await this.o.repo.supersedeOlder(paid, trx);
      return 'consumed';
    });
    if (consumed === 'already_used') throw promoAlreadyUsed();
    if (consumed === 'refused') throw await this.promoRefusal(code);
    return {
      wallet: '',
      paymentUrl: '',
      user: await this.o.customers.customerById(auth.userId),
      error: false,
      errorType: null,
      message: 'The promo code covers the whole price: your membership is active.',
      payment: toPaymentDto(paid),
    };
  }

  /** A user's newer request is always later than their previous one, even within one millisecond. */
  private async stampCreation(trx: Transaction<Database>, payment: PaymentRow): Promise<void> {
    await this.o.users.lockUser(trx, payment.user_id);
    const latest = await this.o.repo.latestCreatedAt(payment.user_id, trx);
    payment.created_at = Math.max(payment.created_at, (latest ?? -1) + 1);
  }

  private async promoRefusal(code: string): Promise<AppError> {
    // (A code the caller already used is refused before this, under the user's lock.)
    const promo = await this.o.promos.find(code);
    if (!promo) return new AppError(404, 'promo_not_found', 'promo code not found');
    if (promo.is_used) return new AppError(409, 'promo_used', 'promo code already used');
    return new AppError(409, 'promo_reserved', 'promo code is being used in another payment');
  }

  /** max(now, current end) + months, in the caller's transaction, with the user's row locked. */
  private async extend(
    trx: Transaction<Database>,
    userId: string,
    months: number,
    now: number,
  ): Promise<number> {
    await this.o.users.lockUser(trx, userId);
    const current = await this.o.repo.endOf(userId, trx);
    const endsAt = addMonths(Math.max(now, current ?? 0), months);
    await this.o.repo.setEnd(userId, endsAt, now, trx);
    return endsAt;
  }

  /**
   * A gateway notification (raw body, as received). Refused (403) unless signed with our key; a paid
   * invoice extends the membership exactly once, whatever the number of (concurrent) repeats.
   */
  async handleCallback(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): Promise<CallbackOutcome> {
    const verdict = verifyCallback(
      this.o.gateway.callbackKey,
      headers,
      rawBody,
      Math.floor(this.o.now() / 1000),
    );
    if (!verdict.ok) {
      this.o.log.warn({ reason: verdict.reason }, 'payment callback refused');
      throw new AppError(403, 'callback_invalid', 'Callback signature is not valid');
    }
    let body: GatewayNotification;
    try {
      body = JSON.parse(rawBody.toString('utf8')) as GatewayNotification;
    } catch {
      throw new AppError(400, 'bad_request', 'Callback body is not JSON');
    }
    if (!body || typeof body.external_id !== 'string')
      throw new AppError(400, 'bad_request', 'Callback has no external_id');
    // SHKeeper's optional "unconfirmed transaction" notice: nothing to do until it confirms.
    if (body.status === 'unconfirmed') return 'ignored';
    // Our ids are UUIDs; anything else (control characters included) names no payment of ours.
    if (!/^[A-Za-z0-9-]{1,64}$/.test(body.external_id)) throw paymentNotFound();
    const payment = await this.o.repo.findPayment(body.external_id);
    if (!payment) throw paymentNotFound();
    if (body.fiat && body.fiat !== payment.currency)
      throw new AppError(400, 'bad_request', `Callback fiat ${body.fiat} does not match ${payment.currency}`);
    const micros = fiatMicros(body.balance_fiat);
    const balance = micros === null ? null : formatFiat(micros);
    if (body.paid !== true) {
      if (balance !== null) await this.recordSettlement(payment, balance, false);
      return 'recorded';
    }
    const outcome = await this.applyPaid(payment, balance);
    // A further transaction on a paid invoice (SHKeeper notifies each one): an overpayment, for the admins.
    if (outcome === 'already_paid' && balance !== null) await this.recordSettlement(payment, balance, true);
    return outcome;
  }

  /** A balance that did not mark the payment paid, checked against what the payment was last due. */
  private async recordSettlement(payment: PaymentRow, balance: string, paid: boolean): Promise<void> {
    const current = (await this.o.repo.findPayment(payment.id)) ?? payment;
    const due = current.due_fiat ?? current.amount;
    const verdict = settle(balance, due);
    await this.o.repo.recordSettlement(
      payment.id,
      { balanceFiat: balance, dueFiat: due, settlement: verdict.settlement, at: this.o.now() },
      paid,
    );
    if (verdict.settlement !== 'exact')
      this.o.log.warn(
        { paymentId: payment.id, due, balance, settlement: verdict.settlement, paid },
        'payment balance does not match the invoice',
      );
  }

  /**
   * pending|superseded → paid and the membership extended, in one transaction, only when the paid
   * balance covers what is due within the tolerance (settlement.ts); 'already_paid' when another
   * callback already did it. Money arriving for a superseded request is honoured too. What is due is
   * the discounted amount, unless the code went to another payment of the same user (one discount per
   * account): then the list price. Under- and overpayments are recorded for the admins.
   */
  private async applyPaid(payment: PaymentRow, balance: string | null): Promise<CallbackOutcome> {
    const now = this.o.now();
    try {
      return await this.o.db.transaction().execute(async (trx) => {
        // user → payment → code, as everywhere: two payments of one user are settled one after the other.
        await this.o.users.lockUser(trx, payment.user_id);
        let due = payment.amount;
        if (
          !(await this.o.repo.markPaid(
            payment.id,
            { balanceFiat: balance, dueFiat: due, settlement: 'exact', at: now },
            trx,
          ))
        )
          return 'already_paid';
        if (
          payment.promo_code &&
          !(await this.o.promos.consume(payment.promo_code, payment.id, payment.user_id, now, trx))
        ) {
          const consumer = await this.o.promos.consumer(payment.promo_code, trx);
          if (consumer && consumer.user_id === payment.user_id) {
            due = payment.list_amount ?? undiscounted(payment.amount, payment.discount_rate);
          } else {
            // Only after a reservation lapsed and another customer took the code: the payer gets what they paid for.
            this.o.log.warn(
              { paymentId: payment.id, code: payment.promo_code },
              'paid with a promo code that another payment used meanwhile',
            );
          }
        }
        const verdict = settle(balance, due);
        if (verdict.settlement === 'underpaid') throw new NotCovered(due, verdict);
        await this.o.repo.recordSettlement(
          payment.id,
          { balanceFiat: balance, dueFiat: due, settlement: verdict.settlement, at: now },
          true,
          trx,
        );
        const endsAt = await this.extend(trx, payment.user_id, payment.duration_months, now);
        this.o.log.info(
          {
            paymentId: payment.id,
            userId: payment.user_id,
            endsAt: iso(endsAt),
            settlement: verdict.settlement,
          },
          'membership extended',
        );
        return 'applied';
      });
    } catch (error) {
      if (!(error instanceof NotCovered)) throw error;
      // Rolled back: still unpaid (a later transaction that completes it is applied then), and recorded.
      await this.o.repo.recordSettlement(
        payment.id,
        { balanceFiat: balance, dueFiat: error.due, settlement: 'underpaid', at: now },
        false,
      );
      this.o.log.warn(
        { paymentId: payment.id, due: error.due, balance, difference: error.verdict.difference },
        'paid notification does not cover the invoice: membership not extended',
      );
      return 'underpaid';
    }
  }

  /** The simulated gateway's "customer paid": the body SHKeeper would send for the invoice, signed. */
  simulatedCallback(payment: PaymentRow): { body: string; headers: Record<string, string> } {
    const txid = randomBytes(32).toString('hex');
    const at = new Date(this.o.now()).toISOString().replace('T', ' ').slice(0, 19);
    const body = compactSortedJson({
      external_id: payment.id,
      crypto: payment.crypto,
      addr: payment.wallet ?? '',
      fiat: payment.currency,
      balance_fiat: payment.amount,
      balance_crypto: payment.crypto_amount ?? '0',
      paid: true,
      status: 'PAID',
      transactions: [
        {
          txid,
          date: at,
          amount_crypto: payment.crypto_amount ?? '0',
          amount_fiat: payment.amount,
          amount_fiat_without_fee: payment.amount,
          fee_fiat: '0',
          trigger: true,
          crypto: payment.crypto,
        },
      ],
      fee_percent: '0',
      fee_fixed: '0',
      fee_policy: 'PERCENT_FEE',
      overpaid_fiat: '0.00',
    });
    const timestamp = String(Math.floor(this.o.now() / 1000));
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-shkeeper-api-key': this.o.gateway.callbackKey,
        'x-shkeeper-timestamp': timestamp,
        'x-shkeeper-signature': signCallback(this.o.gateway.callbackKey, timestamp, body),
      },
    };
  }

  async paymentForSimulation(userId: string, paymentId: string): Promise<PaymentRow> {
    const row = await this.o.repo.findPayment(paymentId);
    if (!row || row.user_id !== userId) throw paymentNotFound();
    if (row.status === 'failed' || !row.wallet)
      throw new AppError(409, 'bad_request', 'This payment request has no invoice to pay');
    return row;
  }

  /**
   * The playback gate (subscription variant): a signed-in caller with an active membership, or the
   * free movie of the month. Admins pass (they check the instance). Anonymous → 401 login_required,
   * signed in without membership → 402 membership_required.
   */
  async assertCanPlay(
    token: string | undefined,
    media: { type: 'movie' | 'show'; tmdbId: string },
  ): Promise<void> {
    if (this.o.variant !== 'subscription') return;
    if (
      media.type === 'movie' &&
      this.o.freeMovieTmdbId !== undefined &&
      media.tmdbId === this.o.freeMovieTmdbId
    )
      return;
    const auth = token ? await this.o.authenticator.authenticate(token, '') : null;
    if (!auth)
      throw new AppError(401, 'login_required', 'Sign in and start a membership to watch this title');
    const endsAt = await this.o.repo.endOf(auth.userId);
    if (endsAt !== null && endsAt > this.o.now()) return;
    if (await this.o.customers.isAdmin(auth.userId)) return;
    throw new AppError(402, 'membership_required', 'A membership is needed to watch this title');
  }
}
