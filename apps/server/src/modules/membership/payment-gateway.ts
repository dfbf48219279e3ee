import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CryptoOption } from '@marquee/contract';

/** What we ask the gateway for: an invoice in fiat, paid in `crypto`, notified to `callbackUrl`. */
export interface InvoiceRequest {
  /** Our payment id (SHKeeper `external_id`). */
  externalId: string;
  crypto: string;
  fiat: string;
  /** Decimal text, e.g. "27.00". */
  amount: string;
  callbackUrl: string;
}

export interface Invoice {
  invoiceId: string | null;
  wallet: string;
  cryptoAmount: string | null;
  displayName: string;
  /** A payment URI to put in the QR code when the gateway has one (BTC Lightning). */
  paymentUri: string | null;
}

/** A payment notification, as the gateway sent it (SHKeeper's body, the app family's protocols). */
export interface GatewayNotification {
  external_id: string;
  crypto?: string;
  addr?: string;
  fiat?: string;
  balance_fiat?: string;
  paid?: boolean;
  status?: string;
  transactions?: { txid?: string; trigger?: boolean }[];
}

export interface GatewayHealth {
  ok: boolean;
  reason: string;
}

/**
 * A crypto payment gateway, as the membership module needs one. Implemented by SHKeeper (the real
 * protocol) and by a simulated gateway that lets a fresh instance and the tests run the whole flow.
 */
export interface PaymentGateway {
  readonly kind: 'simulated' | 'shkeeper';
  /** Cryptos that can be paid with now. Throws a payment_gateway_unavailable AppError when unreachable. */
  listCryptos(): Promise<CryptoOption[]>;
  createInvoice(request: InvoiceRequest): Promise<Invoice>;
  /** The key callbacks are signed with (SHKeeper: the API key). */
  readonly callbackKey: string;
  /** Reachability and credentials, for the admin self-test. */
  health(): Promise<GatewayHealth>;
}

/** Callbacks older than this are refused (SHKeeper's own helper uses the same window). */
export const CALLBACK_MAX_AGE_SECONDS = 300;

export const SIGNATURE_HEADER = 'x-shkeeper-signature';
export const TIMESTAMP_HEADER = 'x-shkeeper-timestamp';
export const API_KEY_HEADER = 'x-shkeeper-api-key';

/** SHKeeper's signature: lowercase hex HMAC-SHA256 (key = API key) of `"<timestamp>." + raw body`. */
export function signCallback(key: string, timestamp: string, rawBody: Buffer | string): string {
  return createHmac('sha256', key).update(`${timestamp}.`).update(rawBody).digest('hex');
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export type CallbackVerdict = { ok: true; signed: boolean } | { ok: false; reason: string };

/**
 * Is this callback from our gateway? With a signature it must verify over the raw bytes and be at
 * most 5 minutes old; without one (older SHKeeper versions) the legacy API-key header must match.
 * A wrong signature is refused even when the API-key header is right.
 */
export function verifyCallback(
  key: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
  nowSeconds: number,
): CallbackVerdict {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const signature = header(SIGNATURE_HEADER);
  const timestamp = header(TIMESTAMP_HEADER);
  if (signature !== undefined || timestamp !== undefined) {
    if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp))
      return { ok: false, reason: 'incomplete signature headers' };
    if (Math.abs(nowSeconds - Number(timestamp)) > CALLBACK_MAX_AGE_SECONDS)
      return { ok: false, reason: 'stale timestamp' };
    if (!sameText(signature.toLowerCase(), signCallback(key, timestamp, rawBody)))
      return { ok: false, reason: 'bad signature' };
    return { ok: true, signed: true };
  }
  const apiKey = header(API_KEY_HEADER);
  if (!apiKey) return { ok: false, reason: 'unsigned' };
  if (!sameText(apiKey, key)) return { ok: false, reason: 'bad API key' };
  return { ok: true, signed: false };
}

/** SHKeeper's callback body encoding: compact JSON with sorted keys (the app family's protocols). */
export function compactSortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value));
}
