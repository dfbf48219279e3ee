import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local SHKeeper (the app family's protocols) for tests: the merchant API over real HTTP with its
 * quirks (errors as HTTP 200 `{"status":"error"}`, invoices keyed by external_id + callback_url + fiat,
 * one address per crypto), and the notification side: `pay()` adds a confirmed transaction and POSTs
 * the callback exactly as SHKeeper does (compact sorted JSON, API key, timestamp and HMAC signature).
 */

export interface FakeCrypto {
  name: string;
  display_name: string;
  /** Fiat per coin. */
  rate: number;
}

export const DEFAULT_CRYPTOS: FakeCrypto[] = [
  { name: 'BTC', display_name: 'Bitcoin', rate: 60_000 },
  { name: 'ETH', display_name: 'Ethereum', rate: 3_379.24 },
  { name: 'USDT', display_name: 'TRC20 USDT', rate: 1 },
];

interface FakeTx {
  txid: string;
  date: string;
  amount_crypto: string;
  amount_fiat: string;
  crypto: string;
}

export interface FakeInvoice {
  id: number;
  external_id: string;
  callback_url: string;
  fiat: string;
  amount_fiat: number;
  crypto: string;
  addresses: Map<string, string>;
  txs: FakeTx[];
  status: 'UNPAID' | 'PARTIAL' | 'PAID' | 'OVERPAID';
}

export interface Notification {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface PayOptions {
  /** Fiat received in this transaction (default: what is still due). */
  amountFiat?: number;
  /** Send only the legacy X-Shkeeper-Api-Key header (older SHKeeper versions). */
  legacy?: boolean;
}

/** Python's Decimal normalisation as SHKeeper prints amounts: no trailing zeros. */
const stripZeros = (n: number, places = 8) => n.toFixed(places).replace(/\.?0+$/, '') || '0';

export class FakeShkeeper {
  readonly invoices = new Map<string, FakeInvoice>();
  readonly requests: { method: string; path: string; headers: IncomingMessage['headers']; body: string }[] =
    [];
  /** Every notification sent, with the HTTP status our server answered. */
  readonly sent: (Notification & { status: number })[] = [];
  /** Percent thresholds of the wallet (PARTIAL below llimit, PAID below ulimit, else OVERPAID). */
  llimit = 98;
  ulimit = 102;
  /** Answer every API call with HTTP 500 (gateway broken) while true. */
  broken = false;
  private server: Server | undefined;
  private nextId = 1;
  private txCounter = 0;
  baseUrl = '';

  constructor(
    readonly apiKey: string,
    readonly cryptos: FakeCrypto[] = DEFAULT_CRYPTOS,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (this.broken) return send(500, { message: 'Internal Server Error' });

    if (req.method === 'GET' && path === '/api/v1/crypto') {
      const list = [...this.cryptos].sort((a, b) => a.name.localeCompare(b.name));
      return send(200, {
        status: 'success',
        crypto: list.map((c) => c.name),
        crypto_list: list.map(({ name, display_name }) => ({ name, display_name })),
      });
    }
    // Every other endpoint needs the API key; failures are HTTP 200 with an error body.
    const key = req.headers['x-shkeeper-api-key'];
    if (!key) return send(200, { status: 'error', message: 'No API key' });
    if (key !== this.apiKey) return send(200, { status: 'error', message: 'Bad API key' });

    const invoiceMatch = /^\/api\/v1\/invoices\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && invoiceMatch) {
      const invoice = this.invoices.get(decodeURIComponent(invoiceMatch[1]!));
      return send(200, {
        status: 'success',
        invoices: invoice
          ? [
              {
                external_id: invoice.external_id,
                fiat: invoice.fiat,
                amount_fiat: String(invoice.amount_fiat),
                balance_fiat: String(this.balance(invoice)),
                status: invoice.status,
                txs: invoice.txs,
              },
            ]
          : [],
      });
    }
    const paymentMatch = /^\/api\/v1\/([^/]+)\/payment_request$/.exec(path);
    if (req.method === 'POST' && paymentMatch) {
      const cryptoName = decodeURIComponent(paymentMatch[1]!);
      const crypto = this.cryptos.find((c) => c.name === cryptoName);
      if (!crypto)
        return send(200, { status: 'error', message: `${cryptoName} payment gateway is unavailable` });
      let input: { external_id?: unknown; fiat?: unknown; amount?: unknown; callback_url?: unknown };
      try {
        input = JSON.parse(body) as typeof input; // force=True: the content type is not checked
      } catch (error) {
        return send(200, {
          status: 'error',
          message: String(error),
          traceback: 'Traceback (most recent call last): …',
        });
      }
      const fiat = String(input.fiat ?? '');
      const amount = Number(input.amount);
      if (
        !['USD', 'EUR'].includes(fiat) ||
        !Number.isFinite(amount) ||
        amount <= 0 ||
        !input.external_id ||
        !input.callback_url
      ) {
        return send(200, {
          status: 'error',
          message: `Invalid invoice: fiat=${fiat} amount=${String(input.amount)}`,
          traceback: 'Traceback …',
        });
      }
      const externalId = String(input.external_id);
      const callbackUrl = String(input.callback_url);
      let invoice = this.invoices.get(externalId);
      if (!invoice || invoice.callback_url !== callbackUrl || invoice.fiat !== fiat) {
        invoice = {
          id: this.nextId++,
          external_id: externalId,
          callback_url: callbackUrl,
          fiat,
          amount_fiat: amount,
          crypto: crypto.name,
          addresses: new Map(),
          txs: [],
          status: 'UNPAID',
        };
        this.invoices.set(externalId, invoice);
      }
      invoice.amount_fiat = amount;
      invoice.crypto = crypto.name;
      if (!invoice.addresses.has(crypto.name))
        invoice.addresses.set(
          crypto.name,
          `${crypto.name.toLowerCase()}-addr-${invoice.id}-${invoice.addresses.size + 1}`,
        );
      return send(200, {
        status: 'success',
        id: invoice.id,
        amount: stripZeros(amount / crypto.rate),
        exchange_rate: String(crypto.rate),
        wallet: invoice.addresses.get(crypto.name),
        display_name: crypto.display_name,
        recalculate_after: 0,
      });
    }
    send(404, { message: 'Not Found' });
  }

  private balance(invoice: FakeInvoice): number {
    return invoice.txs.reduce((sum, tx) => sum + Number(tx.amount_fiat), 0);
  }

  /** The notification SHKeeper would send now for the invoice's latest transaction. */
  notification(externalId: string, options: { legacy?: boolean } = {}): Notification {
    const invoice = this.invoices.get(externalId);
    if (!invoice) throw new Error(`no invoice ${externalId}`);
    const crypto = this.cryptos.find((c) => c.name === invoice.crypto)!;
    const balance = this.balance(invoice);
    const last = invoice.txs.at(-1);
    const payload = {
      external_id: invoice.external_id,
      crypto: invoice.crypto,
      addr: invoice.addresses.get(invoice.crypto),
      fiat: invoice.fiat,
      balance_fiat: balance.toFixed(2),
      balance_crypto: stripZeros(balance / crypto.rate),
      paid: invoice.status === 'PAID' || invoice.status === 'OVERPAID',
      status: invoice.status,
      transactions: invoice.txs.map((tx) => ({
        ...tx,
        amount_fiat_without_fee: tx.amount_fiat,
        fee_fiat: '0',
        trigger: tx === last,
      })),
      fee_percent: '2',
      fee_fixed: '0',
      fee_policy: 'PERCENT_FEE',
      overpaid_fiat: invoice.status === 'OVERPAID' ? (balance - invoice.amount_fiat).toFixed(2) : '0.00',
    };
    const body = compactSortedJson(payload);
    const timestamp = String(Math.floor(this.clock() / 1000));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-shkeeper-api-key': this.apiKey,
    };
    if (!options.legacy) {
      headers['x-shkeeper-timestamp'] = timestamp;
      headers['x-shkeeper-signature'] = createHmac('sha256', this.apiKey)
        .update(`${timestamp}.${body}`)
        .digest('hex');
    }
    return { url: invoice.callback_url, body, headers };
  }

  /** A confirmed transaction arrives: the invoice's status moves, and the callback is sent. Returns our answer's status. */
  async pay(externalId: string, options: PayOptions = {}): Promise<number> {
    const invoice = this.invoices.get(externalId);
    if (!invoice) throw new Error(`no invoice ${externalId}`);
    const crypto = this.cryptos.find((c) => c.name === invoice.crypto)!;
    const due = Math.max(0, invoice.amount_fiat - this.balance(invoice));
    const fiat = options.amountFiat ?? due;
    this.txCounter += 1;
    invoice.txs.push({
      txid: `tx${String(this.txCounter).padStart(62, '0')}`,
      date: new Date(this.clock()).toISOString().replace('T', ' ').slice(0, 19),
      amount_crypto: stripZeros(fiat / crypto.rate),
      amount_fiat: fiat.toFixed(2),
      crypto: crypto.name,
    });
    const balance = this.balance(invoice);
    invoice.status =
      balance < (invoice.amount_fiat * this.llimit) / 100
        ? 'PARTIAL'
        : balance < (invoice.amount_fiat * this.ulimit) / 100
          ? 'PAID'
          : 'OVERPAID';
    return this.deliver(this.notification(externalId, options));
  }

  /** POSTs a notification to its callback URL (SHKeeper resends until it gets 202). */
  async deliver(notification: Notification): Promise<number> {
    const response = await fetch(notification.url, {
      method: 'POST',
      headers: notification.headers,
      body: notification.body,
    });
    await response.arrayBuffer();
    this.sent.push({ ...notification, status: response.status });
    return response.status;
  }
}

/** SHKeeper's webhook encoding: keys sorted, no spaces (webhook_hmac.compact_json_bytes). */
export function compactSortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(sort(value));
}
