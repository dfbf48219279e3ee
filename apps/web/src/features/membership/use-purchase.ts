import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { SubscriptionResponse } from '@marquee/contract';
import { codeKey, errorKey } from '../../lib/api/index.ts';
import { membershipQueries } from '../../lib/api/queries/membership.ts';
import type { MembershipService } from './membership-service.ts';
import { PAY_HEADING } from './payment-step.tsx';
import {
  isPromoRefusal,
  purchaseResolver,
  type PromoMessage,
  type PurchaseContext,
  type PurchaseErrorKey,
  type PurchaseFields,
} from './purchase-form.ts';
import { CHOICE_HEADING } from './purchase-parts.tsx';
import { normalisePromo, paymentBody, promoIsApplied, type AppliedPromo } from './purchase-rules.ts';
import { useFocusOnStepChange, usePurchaseStep } from './purchase-step.ts';

/**
 * The purchase on `/subscription`: the plans and payment options, what the viewer picks (the form), and
 * what the server answered through `service` (the applied code, its message, the started payment).
 * The step (choice or payment) is in the URL (`usePurchaseStep`); focus follows it.
 */
export function usePurchase(service: MembershipService) {
  const { t } = useTranslation(['errors', 'membership']);
  const plans = useQuery(membershipQueries.plans());
  const cryptos = useQuery(membershipQueries.cryptos());
  // What the viewer picks is the form; what the server answered (the applied code, the payment) is not.
  const [applied, setApplied] = useState<AppliedPromo | null>(null);
  const [promoMessage, setPromoMessage] = useState<PromoMessage | null>(null);
  const [started, setStarted] = useState<SubscriptionResponse | null>(null);
  const step = usePurchaseStep(started !== null);
  useFocusOnStepChange(step.paying, step.paying ? PAY_HEADING : CHOICE_HEADING);
  const form = useForm<PurchaseFields, PurchaseContext>({
    resolver: purchaseResolver,
    context: { applied, firstPlan: plans.data?.[0]?.id ?? null },
    defaultValues: { planId: null, crypto: '', hasPromo: false, promoInput: '' },
  });
  const { planId, crypto, hasPromo, promoInput } = useWatch({ control: form.control });
  const { errors } = form.formState;
  const fieldError = (field: keyof PurchaseFields) => {
    const key = errors[field]?.message;
    return key ? t(key as PurchaseErrorKey) : null;
  };

  const plan = plans.data?.find((p) => p.id === (planId ?? plans.data[0]?.id)) ?? null;
  const draft = {
    planId: plan?.id ?? null,
    crypto: crypto || null,
    hasPromo: hasPromo ?? false,
    promoInput: promoInput ?? '',
    applied,
  };

  const apply = useMutation({
    mutationFn: (code: string) => service.checkPromo(code),
    onMutate: () => {
      setApplied(null);
      setPromoMessage(null);
      // The answer replaces "apply the code first".
      form.clearErrors('promoInput');
    },
    onSuccess: (answer, code) => {
      if (!answer.error && answer.code) setApplied({ code: answer.code.code, rate: answer.code.rate });
      setPromoMessage({
        text: answer.error
          ? t(codeKey(answer.errorCode))
          : t('membership.promo.applied', { rate: answer.code?.rate ?? 0 }),
        ok: !answer.error,
        code,
      });
    },
    onError: (e, code) => setPromoMessage({ text: t(errorKey(e)), ok: false, code }),
  });

  const start = useMutation({
    mutationFn: () => service.startPayment(paymentBody(draft)),
    onSuccess: (answer) => {
      void service.storeUser(answer.user);
      setStarted(answer);
      step.toPay();
    },
    // A refused code (used meanwhile, held by another payment) goes under its field, no longer applied.
    onError: (e) => {
      if (!isPromoRefusal(e)) return;
      setApplied(null);
      setPromoMessage({ text: t(errorKey(e)), ok: false, code: normalisePromo(draft.promoInput) });
    },
  });

  return {
    plans,
    cryptos,
    form,
    plan,
    draft,
    fieldError,
    /** The applied code, while the field still holds it (the total shows its discount). */
    discount: draft.hasPromo && promoIsApplied(draft) ? applied : null,
    /** The answer about the code the field holds now. */
    promoNote: promoMessage?.code === normalisePromo(draft.promoInput) ? promoMessage : null,
    apply,
    start,
    /** Why the payment request failed, when Retry can help (a refused code shows under its field). */
    startError: start.isError && !isPromoRefusal(start.error) ? t(errorKey(start.error)) : null,
    submit: form.handleSubmit(() => start.mutate()),
    started,
    step,
    /** From the payment step: a new choice, from scratch. */
    startOver: () => {
      setStarted(null);
      setApplied(null);
      form.reset();
      setPromoMessage(null);
      step.toChoice();
    },
  };
}
