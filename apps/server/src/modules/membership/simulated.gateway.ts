import { createHash } from 'node:crypto';
import type { CryptoOption } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { GatewayHealth, Invoice, InvoiceRequest, PaymentGateway } from './payment-gateway.ts';

/** Made-up exchange rates (fiat per coin): the simulated invoice shows plausible amounts, nothing more. */
const SIMULATED: { name: string; display_name: string; rate: number; decimals: number }[] = [
  { name: 'BTC', display_name: 'Bitcoin', rate: 60_000, decimals: 8 },
  { name: 'ETH', display_name: 'Ethereum', rate: 3_000, decimals: 8 },
  { name: 'LTC', display_name: 'Litecoin', rate: 80, decimals: 8 },
  { name: 'USDT', display_name: 'TRC20 USDT', rate: 1, decimals: 2 },
  { name: 'XMR', display_name: 'Monero XMR', rate: 150, decimals: 8 },
];

/**
 * A gateway inside the instance: invoices with made-up wallets, paid on request through
 * POST /api/payments/:id/simulate-paid, which sends the same signed callback SHKeeper would.
 * For a fresh instance and the tests; never for taking real money.
 */
export class SimulatedGateway implements PaymentGateway {
  readonly kind = 'simulated' as const;

  constructor(readonly callbackKey: string) {}

  async listCryptos(): Promise<CryptoOption[]> {
    return SIMULATED.map(({ name, display_name }) => ({ name, display_name }));
  }

  async createInvoice(request: InvoiceRequest): Promise<Invoice> {
    const coin = SIMULATED.find((c) => c.name === request.crypto);
    if (!coin)
      throw new AppError(
        502,
        'payment_gateway_unavailable',
        `Payment gateway: ${request.crypto} payment gateway is unavailable`,
      );
    const digest = createHash('sha256').update(`${request.externalId}:${request.crypto}`).digest('hex');
    const cryptoAmount = (Number(request.amount) / coin.rate).toFixed(coin.decimals).replace(/\.?0+$/, '');
    return {
      invoiceId: `sim-${digest.slice(0, 12)}`,
      wallet: `sim-${coin.name.toLowerCase()}-${digest.slice(0, 34)}`,
      cryptoAmount,
      displayName: coin.display_name,
      paymentUri: null,
    };
  }

  async health(): Promise<GatewayHealth> {
    return {
      ok: true,
      reason:
        'Simulated gateway (PAYMENT_GATEWAY=simulated): payments are not real; use SHKeeper to take money',
    };
  }
}
