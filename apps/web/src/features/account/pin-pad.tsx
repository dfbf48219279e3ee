import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { PROFILE_PIN_MAX_LENGTH, PROFILE_PIN_MIN_LENGTH } from '@marquee/contract/values';
import type { ProfileUnlockResponse } from '@marquee/contract';
import { unlockProfile } from '../../lib/account/customer-api.ts';
import { errorKey } from '../../lib/api/index.ts';
import { FormError } from './auth-ui.tsx';

/** Where the digit 0 is in the scripts a keyboard may type digits in (Arabic-Indic, Persian, Indic, Thai, full-width …). */
const DIGIT_ZEROS = [
  0x0660, 0x06f0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0x0e50, 0x0ed0,
  0x0f20, 0x1040, 0xff10,
];

/** A text's digits of those scripts as ASCII digits (a PIN is ASCII on the wire); the rest unchanged. */
export function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (d) => {
    const code = d.codePointAt(0)!;
    const zero = DIGIT_ZEROS.find((z) => code >= z && code <= z + 9);
    return zero === undefined ? d : String(code - zero);
  });
}

/**
 * The PIN pad's check of a profile's PIN with the server (wrong ones are throttled there): the unlock
 * goes to `onUnlocked`; a refusal becomes what the pad tells the viewer.
 */
export function usePinCheck(
  profileId: string,
  onUnlocked: (unlock: ProfileUnlockResponse) => void,
): (pin: string) => Promise<string | null> {
  const { t } = useTranslation(['customer', 'errors']);
  return async (pin) => {
    try {
      onUnlocked(await unlockProfile(profileId, pin));
      return null;
    } catch (e) {
      const key = errorKey(e);
      return t(key === 'errors.api.pin_incorrect' ? 'customer.profiles.pin.wrong' : key);
    }
  };
}

export const isPin = (pin: string) =>
  new RegExp(`^[0-9]{${PROFILE_PIN_MIN_LENGTH},${PROFILE_PIN_MAX_LENGTH}}$`).test(pin);

/** The keypad's keys in reading order; 'erase' and 'ok' close its last row. */
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'erase', '0', 'ok'] as const;
const COLUMNS = 3;

export interface PinPadProps {
  /** The heading, also the field's name. */
  title: string;
  description?: ReactNode;
  /** Checks the PIN; answers an error to show (the field is cleared for another try), or null when done. */
  onSubmit(pin: string): Promise<string | null>;
  /** Extra actions under the keypad (Cancel, Switch profile). */
  actions?: ReactNode;
}

/**
 * A PIN entry (decision 104) that works by touch, keyboard, remote and screen reader: a labelled password
 * field that takes typed digits (of any script) and Enter, and a keypad whose arrow keys move between its
 * keys like a remote's (focus wraps by row and column). The field does not raise a phone's keyboard: the
 * keypad is the phone's.
 */
export function PinPad({ title, description, onSubmit, actions }: PinPadProps) {
  const { t } = useTranslation(['customer']);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const keys = useRef<(HTMLButtonElement | null)[]>([]);

  const submit = async () => {
    if (busy) return;
    if (!isPin(pin)) {
      setError(t('customer.profiles.lock.pinInvalid'));
      return;
    }
    setBusy(true);
    const problem = await onSubmit(pin).finally(() => setBusy(false));
    if (problem) {
      setError(problem);
      setPin('');
      field.current?.focus();
    }
  };
  const press = (key: Key) => {
    setError(null);
    if (key === 'ok') void submit();
    else if (key === 'erase') setPin((p) => p.slice(0, -1));
    else setPin((p) => (p.length < PROFILE_PIN_MAX_LENGTH ? p + key : p));
  };
  return (
    <form
      className="mx-auto flex w-full max-w-xs flex-col items-center gap-4"
      noValidate
      data-testid="pin-pad"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id="pin-pad-title" className="text-center text-xl font-bold text-fg">
        {title}
      </h2>
      {description && <p className="text-center text-sm text-fg-muted">{description}</p>}
      <label className="sr-only" htmlFor="pin-pad-field">
        {t('customer.profiles.pin.label')}
      </label>
      <input
        id="pin-pad-field"
        ref={field}
        data-autofocus
        type="password"
        // No phone keyboard over the keypad; a hardware keyboard types as usual.
        inputMode="none"
        autoComplete="off"
        maxLength={PROFILE_PIN_MAX_LENGTH}
        value={pin}
        aria-describedby="pin-pad-count"
        onChange={(e) => {
          setError(null);
          setPin(
            asciiDigits(e.target.value)
              .replace(/[^0-9]/g, '')
              .slice(0, PROFILE_PIN_MAX_LENGTH),
          );
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            keys.current[1]?.focus();
          }
        }}
        className="h-14 w-full rounded-xl border border-white/10 bg-surface-3 text-center text-3xl tracking-[0.5em] text-fg focus-visible:outline-2 focus-visible:outline-accent"
        data-testid="pin-field"
      />
      <p id="pin-pad-count" className="sr-only" aria-live="polite">
        {t('customer.profiles.pin.entered', { count: pin.length })}
      </p>
      <FormError message={error} />
      <Keypad keys={keys} field={field} busy={busy} onPress={press} labelledBy="pin-pad-title" />
      {actions && <div className="flex w-full flex-wrap justify-center gap-3">{actions}</div>}
    </form>
  );
}

type Key = (typeof KEYS)[number];

/**
 * The keypad: digits in the viewer's script, erase and OK, laid out left to right in every language (as
 * phones' keypads are). Arrows move between its keys like a remote's; up from its top row goes back to the
 * field, past its sides and bottom they leave it; a digit or Backspace typed on a key counts as pressing it.
 */
function Keypad({
  keys,
  field,
  busy,
  onPress,
  labelledBy,
}: {
  keys: RefObject<(HTMLButtonElement | null)[]>;
  field: RefObject<HTMLInputElement | null>;
  busy: boolean;
  onPress: (key: Key) => void;
  labelledBy: string;
}) {
  const { t, i18n } = useTranslation(['customer']);
  const digitOf = useMemo(() => {
    const format = new Intl.NumberFormat(i18n.language, { useGrouping: false });
    return (d: string) => format.format(Number(d));
  }, [i18n.language]);
  const onKeypadKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: -COLUMNS,
      ArrowDown: COLUMNS,
    }[e.key];
    if (step === undefined) {
      const digit = asciiDigits(e.key);
      if (/^[0-9]$/.test(digit)) {
        e.preventDefault();
        onPress(digit as Key);
      } else if (e.key === 'Backspace') {
        e.preventDefault();
        onPress('erase');
      }
      return;
    }
    const next = index + step;
    const column = index % COLUMNS;
    // Past the keypad's sides or below its last row the arrow is the page's (a remote goes on to the
    // controls beside or below it: lib/tv/spatial-navigation.ts).
    if (next >= KEYS.length || (step === -1 && column === 0) || (step === 1 && column === COLUMNS - 1))
      return;
    e.preventDefault();
    if (next < 0) field.current?.focus();
    else keys.current[next]?.focus();
  };

  return (
    // A keypad keeps its 1-2-3 order in right-to-left languages too, as phones' keypads do.
    <div className="grid w-full grid-cols-3 gap-3" role="group" aria-labelledby={labelledBy} dir="ltr">
      {KEYS.map((key, i) => (
        <button
          key={key}
          ref={(el) => {
            keys.current[i] = el;
          }}
          type="button"
          onClick={() => onPress(key)}
          onKeyDown={(e) => onKeypadKey(e, i)}
          disabled={busy && key === 'ok'}
          aria-label={
            key === 'erase'
              ? t('customer.profiles.pin.erase')
              : key === 'ok'
                ? t('customer.profiles.pin.submit')
                : undefined
          }
          className={`flex h-14 items-center justify-center rounded-xl text-2xl font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:opacity-50 ${
            key === 'ok'
              ? 'bg-accent text-white hover:bg-accent-strong'
              : 'bg-surface-3 text-fg hover:bg-surface-2'
          }`}
          data-testid={`pin-key-${key}`}
        >
          {key === 'erase' ? (
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-7 w-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M9 5h11a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H9l-6-7 6-7Z" strokeLinejoin="round" />
              <path d="m12 9 6 6m0-6-6 6" strokeLinecap="round" />
            </svg>
          ) : key === 'ok' ? (
            // An icon: the word would not fit a key in every language; the key's name says it.
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-7 w-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="3"
            >
              <path d="m5 12 5 5 9-10" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          ) : (
            digitOf(key)
          )}
        </button>
      ))}
    </div>
  );
}
