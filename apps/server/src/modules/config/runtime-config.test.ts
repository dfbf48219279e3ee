import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { runtimeConfigFrom } from './runtime-config.ts';

const browserView = (env: Record<string, string>) => runtimeConfigFrom(loadConfig(env), 'catalog', null);

describe('what the web app learns about payments', () => {
  it('a discovery instance has no payment gateway, whatever PAYMENT_GATEWAY says', () => {
    // The web app then never offers a membership nor /subscription (issue 15).
    expect(browserView({})).toMatchObject({ paymentGateway: false, simulatedPayments: false });
    expect(
      browserView({
        PAYMENT_GATEWAY: 'shkeeper',
        SHKEEPER_URL: 'https://pay.example',
        SHKEEPER_API_KEY: 'k',
      }),
    ).toMatchObject({ paymentGateway: false, simulatedPayments: false });
  });

  it('a subscription instance sells memberships through its gateway, simulated or real', () => {
    expect(browserView({ VARIANT: 'subscription', ALLOW_SIMULATED_PAYMENTS: 'true' })).toMatchObject({
      paymentGateway: true,
      simulatedPayments: true,
    });
    expect(
      browserView({
        VARIANT: 'subscription',
        PAYMENT_GATEWAY: 'shkeeper',
        SHKEEPER_URL: 'https://pay.example',
        SHKEEPER_API_KEY: 'k',
      }),
    ).toMatchObject({ paymentGateway: true, simulatedPayments: false });
  });
});
