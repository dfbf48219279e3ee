import type { CryptoOption } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import {
  API_KEY_HEADER,
  type GatewayHealth,
  type Invoice,
  type InvoiceRequest,
  type PaymentGateway,
} from './payment-gateway.ts';

export interface ShkeeperOptions {
  /** e.g. https://pay.example (the API is under /api/v1). */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

const unreachable = (cause?: unknown) =>
  new AppError(
    503,
    'payment_gateway_unavailable',
    'The payment gateway cannot be reached, please try again later',
    { cause },
  );

interface ShkeeperAnswer {
  status?: string;
  message?: string;
  [key: string]: unknown;
}

/**
 * SHKeeper's merchant API (the app family's protocols): `GET /api/v1/crypto` (no auth) and
 * `POST /api/v1/{crypto}/payment_request` with `X-Shkeeper-Api-Key`. SHKeeper answers its errors with
 * HTTP 200 and `{"status":"error","message":…}`; those become 502 errors carrying its message.
 */
export class ShkeeperGateway implements PaymentGateway {
  readonly kind = 'shkeeper' as const;
  private readonly fetch: typeof fetch;
  private readonly base: string;

  constructor(private readonly o: ShkeeperOptions) {
    this.fetch = o.fetch ?? fetch;
    this.base = o.baseUrl.replace(/\/+$/, '');
  }

  get callbackKey(): string {
    return this.o.apiKey;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    withKey = true,
  ): Promise<ShkeeperAnswer> {
    let response: Response;
    try {
      response = await this.fetch(`${this.base}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          ...(withKey ? { [API_KEY_HEADER]: this.o.apiKey } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw unreachable(error);
    }
    if (!response.ok) throw unreachable(new Error(`SHKeeper answered HTTP ${response.status}`));
    try {
      return (await response.json()) as ShkeeperAnswer;
    } catch (error) {
      throw unreachable(error);
    }
  }

  private static refusal(answer: ShkeeperAnswer): AppError {
    return new AppError(
      502,
      'payment_gateway_unavailable',
      `Payment gateway: ${String(answer.message ?? 'request refused')}`,
    );
  }

  async listCryptos(): Promise<CryptoOption[]> {
    const answer = await this.call('GET', '/api/v1/crypto', undefined, false);
    if (answer.status !== 'success') throw ShkeeperGateway.refusal(answer);
    const list = Array.isArray(answer.crypto_list) ? (answer.crypto_list as unknown[]) : [];
    return list
      .filter(
        (c): c is { name: string; display_name?: unknown } =>
          !!c && typeof (c as { name?: unknown }).name === 'string',
      )
      .map((c) => ({
        name: c.name,
        display_name: typeof c.display_name === 'string' ? c.display_name : c.name,
      }));
  }

  async createInvoice(request: InvoiceRequest): Promise<Invoice> {
    const answer = await this.call('POST', `/api/v1/${encodeURIComponent(request.crypto)}/payment_request`, {
      external_id: request.externalId,
      fiat: request.fiat,
      amount: request.amount,
      callback_url: request.callbackUrl,
    });
    if (answer.status !== 'success' || typeof answer.wallet !== 'string' || !answer.wallet)
      throw ShkeeperGateway.refusal(answer);
    return {
      invoiceId: answer.id === undefined || answer.id === null ? null : String(answer.id),
      wallet: answer.wallet,
      cryptoAmount:
        typeof answer.amount === 'string' || typeof answer.amount === 'number' ? String(answer.amount) : null,
      displayName: typeof answer.display_name === 'string' ? answer.display_name : request.crypto,
      paymentUri: typeof answer.bip21 === 'string' && answer.bip21 ? answer.bip21 : null,
    };
  }

  /** Reachable (crypto list) and the API key accepted (an invoice look-up that needs it). */
  async health(): Promise<GatewayHealth> {
    try {
      const cryptos = await this.listCryptos();
      const probe = await this.call('GET', '/api/v1/invoices/marquee-self-test');
      if (probe.status !== 'success')
        return {
          ok: false,
          reason: `SHKeeper refused the API key: ${String(probe.message ?? 'unknown error')}`,
        };
      if (cryptos.length === 0)
        return {
          ok: false,
          reason: 'SHKeeper answers but offers no cryptocurrency (no wallet enabled and online)',
        };
      return {
        ok: true,
        reason: `SHKeeper answers, API key accepted, ${cryptos.length} cryptocurrencies: ${cryptos.map((c) => c.name).join(', ')}`,
      };
    } catch (error) {
      const cause =
        error instanceof AppError && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      return { ok: false, reason: `${error instanceof Error ? error.message : String(error)}${cause}` };
    }
  }
}
