import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

const STEP = 'step';
const PAY = 'pay';
/** Marks the history entry this page pushed for the payment step: the entry before it is the choice. */
const PUSHED = 'purchaseStepPushed';

/**
 * The purchase's step in the URL (`?step=pay`), so the browser's Back leaves the payment for the choice
 * just as the page's own Back does. The payment itself is the page's state: a `?step=pay` without one
 * (after a reload, from a shared link) shows the choice.
 */
export function usePurchaseStep(hasPayment: boolean) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const atPay = params.get(STEP) === PAY;
  const pushed = (location.state as Record<string, unknown> | null)?.[PUSHED] === true;
  return {
    paying: hasPayment && atPay,
    toPay: () => {
      if (atPay) return;
      const next = new URLSearchParams(params);
      next.set(STEP, PAY);
      setParams(next, { state: { [PUSHED]: true } });
    },
    // Going back through history keeps Back and Forward in step with what the page shows.
    toChoice: () => {
      if (atPay && pushed) void navigate(-1);
      else {
        const next = new URLSearchParams(params);
        next.delete(STEP);
        setParams(next, { replace: true });
      }
    },
  };
}

/**
 * Moves focus to the element `id` when `step` changes, never on the first render: the new step's
 * heading is where a keyboard or screen-reader user goes on (the control they used is gone).
 */
export function useFocusOnStepChange(step: unknown, id: string) {
  const shown = useRef(step);
  useEffect(() => {
    if (Object.is(shown.current, step)) return;
    shown.current = step;
    document.getElementById(id)?.focus();
  }, [step, id]);
}
