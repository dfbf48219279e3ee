import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { RetryAlert } from '../../components/retry-alert.tsx';
import { clock } from '../../lib/clock.ts';
import { membershipState } from '../../lib/membership-status.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useAccountStore } from '../../stores/index.ts';
import { CryptoChoice } from './crypto-choice.tsx';
import { membershipService, type MembershipService } from './membership-service.ts';
import { PaymentStep } from './payment-step.tsx';
import { PaymentTotal, PlanChoice } from './plan-choice.tsx';
import { PromoCode } from './promo-code.tsx';
import { PurchaseHeader } from './purchase-header.tsx';
import { normalisePromo } from './purchase-rules.ts';
import { usePurchase } from './use-purchase.ts';

/**
 * `/subscription`: choose a plan and a crypto option, optionally a promo code (which must be applied
 * first), then start the payment: wallet, QR code and the warning that older unpaid links are lost,
 * polled until paid. Two steps, the second in the URL (`?step=pay`) so Back returns to the choice.
 * Signed-in only (the app redirects others). `service` talks to the account server (default: the app's,
 * `membershipService`); the purchase's state is `usePurchase`.
 */
export function SubscriptionPage({ service = membershipService }: { service?: MembershipService } = {}) {
  const { t } = useTranslation(['errors', 'membership']);
  usePageTitle(t('membership.pageTitle'));
  const user = useAccountStore((s) => s.account?.user);
  const membership = membershipState(user, clock.now());
  const title = t(membership.state === 'active' ? 'membership.titleExtend' : 'membership.title');
  const purchase = usePurchase(service);
  const { form, draft, start, submit } = purchase;

  if (purchase.started && purchase.step.paying) {
    return (
      <PaymentStep
        started={purchase.started}
        title={title}
        onBack={purchase.step.toChoice}
        onAnother={purchase.startOver}
      />
    );
  }

  const cryptoField = form.register('crypto');
  // Unticking the box answers "apply the code first" too.
  const hasPromoField = form.register('hasPromo', { deps: 'promoInput' });
  const promoField = form.register('promoInput');
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 py-10">
      <PurchaseHeader title={title} membership={membership} />
      <form
        className="flex flex-col gap-8"
        noValidate
        onSubmit={(e) => void submit(e)}
        // Any change makes the refused request's message stale (its Retry would send something else).
        onChange={() => {
          if (start.isError) start.reset();
        }}
      >
        <PlanChoice
          plans={purchase.plans}
          chosen={purchase.plan?.id ?? null}
          onChoose={(id) => form.setValue('planId', id, { shouldValidate: form.formState.isSubmitted })}
          error={purchase.fieldError('planId')}
        />
        <CryptoChoice cryptos={purchase.cryptos} field={cryptoField} error={purchase.fieldError('crypto')} />
        <PromoCode
          checkbox={hasPromoField}
          field={promoField}
          open={draft.hasPromo}
          canApply={Boolean(draft.promoInput.trim())}
          applying={purchase.apply.isPending}
          onApply={() => purchase.apply.mutate(normalisePromo(draft.promoInput))}
          error={purchase.fieldError('promoInput')}
          note={purchase.promoNote}
        />
        {purchase.plan && <PaymentTotal plan={purchase.plan} discount={purchase.discount} />}
        {purchase.startError && (
          <RetryAlert
            retryLabel={t('membership.retry')}
            message={purchase.startError}
            onRetry={() => void submit()}
            testId="payment-error"
          />
        )}
        <div>
          <Button type="submit" className="min-h-11" disabled={start.isPending || !purchase.plans.data}>
            {start.isPending ? t('membership.starting') : t('membership.start')}
          </Button>
        </div>
      </form>
    </div>
  );
}
