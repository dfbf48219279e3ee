/** The purchase form's input style. */
export const INPUT =
  'min-h-11 w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none aria-[invalid=true]:border-red-400';
/** The choice step's heading (focused when Back returns to it). */
export const CHOICE_HEADING = 'membership-title';
/** Ids (and test ids) of the messages under the fields, which the fields name in `aria-describedby`. */
export const NOTE = {
  plan: 'plan-error',
  crypto: 'crypto-error',
  promo: 'promo-code-error',
  promoAnswer: 'promo-message',
} as const;

/** A field's error under it, named so its input can point at it (`aria-describedby`). */
export function FieldError({ id, text }: { id: string; text: string | null }) {
  if (!text) return null;
  return (
    <p id={id} className="text-sm text-red-300" data-testid={id}>
      {text}
    </p>
  );
}

/** The input's link to its messages, for screen readers. */
export const describedBy = (invalid: boolean, ...ids: (string | false | null | undefined)[]) =>
  ({
    'aria-invalid': invalid || undefined,
    'aria-describedby': ids.filter(Boolean).join(' ') || undefined,
  }) as const;
