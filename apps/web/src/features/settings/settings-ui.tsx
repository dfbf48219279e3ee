import type { ReactNode } from 'react';

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24 border-b border-white/5 pb-10">
      <h2 id={`${id}-heading`} className="mb-6 text-2xl font-bold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function Toggle({
  id,
  label,
  description,
  checked,
  onChange,
  disabled = false,
}: {
  id: string;
  label: string;
  description?: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex items-start justify-between gap-6 rounded-xl bg-surface-1 p-4">
      <div>
        <label htmlFor={id} className="font-semibold text-fg">
          {label}
        </label>
        {description && <p className="mt-1 text-sm text-fg-muted">{description}</p>}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        // 44 × 44 to touch; the track (36 × 20) is its content box, the padding only widens the target. The
        // corner radii minus the padding round the track into a pill (10 px both ways at 16 px a rem; in rem, so
        // it stays a pill in TV mode's larger type).
        className="-my-2.5 box-border h-11 w-11 shrink-0 cursor-pointer appearance-none rounded-[0.875rem/1.375rem] bg-surface-3 bg-clip-content px-1 py-3 transition-colors before:block before:h-5 before:w-5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-accent checked:before:translate-x-4 disabled:cursor-not-allowed disabled:opacity-50 rtl:checked:before:-translate-x-4"
      />
    </div>
  );
}

export function Slider({
  id,
  label,
  value,
  min,
  max,
  step,
  onChange,
  format,
}: {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (v: number) => void;
  format: (v: number) => string;
}) {
  return (
    // On a phone the label sits above the slider, which keeps the row's width.
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
      <label htmlFor={id} className="w-full shrink-0 text-sm font-semibold text-fg sm:w-40">
        {label}
      </label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="h-11 min-w-0 flex-1 accent-[var(--color-accent)]"
      />
      <span className="w-14 text-end font-mono text-sm text-fg-muted" dir="ltr">
        {format(value)}
      </span>
    </div>
  );
}

/** A text field's or a select's look in Settings. */
export const INPUT =
  'w-full rounded-lg border border-white/10 bg-surface-1 px-3 py-2 text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none';

export interface SelectOption {
  value: string;
  label: string;
  /** The option's own language (a language named in itself). */
  lang?: string;
}

/** A line under a setting: what it does, or what this device is. */
export interface SettingNote {
  id: string;
  text: string;
  testId?: string;
}

/** A setting chosen from a list: its label, the select, and the notes under it (which describe it). */
export function SelectSetting({
  id,
  label,
  value,
  options,
  onChange,
  notes,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange(value: string): void;
  notes: readonly SettingNote[];
  testId: string;
}) {
  return (
    <div className="rounded-xl bg-surface-1 p-4">
      <label htmlFor={id} className="mb-2 block font-semibold text-fg">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={notes.map((n) => n.id).join(' ') || undefined}
        className={INPUT}
        data-testid={testId}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value} lang={o.lang}>
            {o.label}
          </option>
        ))}
      </select>
      {notes.map((n, i) => (
        <p
          key={n.id}
          id={n.id}
          className={`${i === 0 ? 'mt-2' : 'mt-1'} text-sm text-fg-muted`}
          data-testid={n.testId}
        >
          {n.text}
        </p>
      ))}
    </div>
  );
}
