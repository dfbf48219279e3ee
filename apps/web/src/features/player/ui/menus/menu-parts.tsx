import type { TFunction } from 'i18next';
import type { StreamQuality } from '../../core/quality.ts';
import {
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { MENU_ITEMS as ITEMS, useMenuKeys } from '../../../../components/use-menu-keys.ts';
import { Icon } from '../icons.tsx';
import { displayNames } from '../../../../lib/intl.ts';

/** Opens a menu by its `?r=` path. */
export type OpenMenu = (path: string) => void;

/** One row of a menu (a button or a labelled control). */
export const ROW =
  'flex min-h-11 w-full items-center gap-3 rounded-lg px-3 py-2 text-start text-sm text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-40';

/** The `?r=` route the viewer came back from (overlay-host.tsx): its row takes focus in the parent. */
export const ReturnedFrom = createContext<string | null>(null);

interface Frame {
  titleId: string;
  /** Says a row's error to screen readers (assertively, from outside the menu: a menu holds only items). */
  announce(text: string): void;
}
const FrameContext = createContext<Frame>({ titleId: '', announce: () => undefined });

/** What the arrow keys walk: the back row, the menu's items and a panel's own controls (fields, sliders). */
const CONTROLS = `button:not(:disabled), input:not(:disabled):not([type="file"]), ${ITEMS}`;

const all = (root: HTMLElement | null, selector: string) =>
  Array.from(root?.querySelectorAll<HTMLElement>(selector) ?? []);

/** Where focus goes when a menu opens: the row that opened the menu it came back from, the checked item, the first. */
function openingFocus(body: HTMLElement, from: string | null, panel: boolean): HTMLElement | null {
  const items = all(body, ITEMS);
  const opener = from ? all(body, '[data-opens]').find((row) => row.dataset.opens === from) : undefined;
  return (
    opener ??
    items.find(
      (i) => i.getAttribute('role') === 'menuitemradio' && i.getAttribute('aria-checked') === 'true',
    ) ??
    items.find((i) => i.getAttribute('aria-current') === 'true') ??
    items[0] ??
    (panel ? (all(body, CONTROLS)[0] ?? null) : null)
  );
}

/**
 * The frame of every menu, with the WAI-ARIA menu keys (`useMenuKeys`): ArrowDown/ArrowUp walk the rows
 * and the back row (wrapping), Home/End jump to the ends, and a sub-menu goes back to its `parent` on Escape
 * and ArrowLeft (ArrowRight right to left), where the row that opened it takes focus again. ArrowRight
 * (ArrowLeft) opens a row's sub-menu. A top-level menu's Escape reaches `useKeyboardShortcuts`, which closes
 * the menus; focus then returns to the bar button that opened them (player-view.tsx). Items keep one Tab
 * stop between them (roving tabindex). Inside a menu the keys never seek or change the volume.
 */
export function MenuCard({
  title,
  back,
  parent,
  panel = false,
  children,
  testId,
}: {
  title: string;
  /** The back row: to the parent menu, or out of the menus for a top-level one. */
  back: { label: string; go(): void };
  /** A sub-menu's parent menu. */
  parent?: (() => void) | undefined;
  /** Controls rather than choices (caption settings, the shortcuts): a dialog, not a menu. */
  panel?: boolean;
  children: ReactNode;
  testId: string;
}) {
  const body = useRef<HTMLDivElement>(null);
  const from = useContext(ReturnedFrom);
  const titleId = useId();
  const [alert, setAlert] = useState('');
  const [frame] = useState<Frame>(() => ({ titleId, announce: setAlert }));
  const { keyProps } = useMenuKeys({
    walk: CONTROLS,
    parent,
    contain: true,
    // Until something to focus shows (episodes, sources load late), the card holds focus.
    initialFocus: (card) => (body.current && openingFocus(body.current, from, panel)) ?? card,
  });

  return (
    <div
      {...keyProps}
      tabIndex={-1}
      className="flex max-h-[70vh] w-[343px] max-w-[calc(100vw-2rem)] flex-col overflow-hidden rounded-xl bg-neutral-900/95 text-white shadow-2xl outline-none backdrop-blur"
      data-testid={testId}
      role={panel ? 'dialog' : undefined}
      aria-labelledby={panel ? titleId : undefined}
    >
      <div className="flex items-center gap-2 border-b border-white/10 px-3 py-2">
        <button
          type="button"
          onClick={back.go}
          className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
          aria-label={back.label}
        >
          <Icon name="arrowLeft" className="h-5 w-5" />
        </button>
        <h2 id={titleId} className="text-sm font-bold">
          {title}
        </h2>
      </div>
      <div ref={body} className="overflow-y-auto p-2">
        <FrameContext.Provider value={frame}>{children}</FrameContext.Provider>
      </div>
      <p role="alert" className="sr-only">
        {alert}
      </p>
    </div>
  );
}

/** The menu's items (role="menu", named by the card's title); what is not an item stays outside it. */
export function MenuList({ children }: { children: ReactNode }) {
  const { titleId } = useContext(FrameContext);
  return (
    <div role="menu" aria-labelledby={titleId} className="flex flex-col">
      {children}
    </div>
  );
}

/** Items under a heading of their own inside a menu. */
export function MenuGroup({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} data-testid={testId}>
      <p id={id} className="px-3 pt-3 text-xs font-semibold uppercase tracking-wide text-white/50">
        {label}
      </p>
      {children}
    </div>
  );
}

type ItemProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'role' | 'type'>;

/** An item that does something or opens a sub-menu (`data-opens`). Out of the Tab order until focused. */
export function MenuItem({ className = '', ...props }: ItemProps) {
  return <button type="button" role="menuitem" tabIndex={-1} className={`${ROW} ${className}`} {...props} />;
}

/** One of exclusive choices (a language, a quality, a speed, a source), checked when chosen. */
export function MenuRadio({
  checked,
  marked = checked,
  className = '',
  children,
  ...props
}: ItemProps & {
  checked: boolean;
  /** The check mark, when it shows more than the choice (the quality "automatic" picked). */
  marked?: boolean;
}) {
  return (
    <button
      type="button"
      role="menuitemradio"
      aria-checked={checked}
      tabIndex={-1}
      className={`${ROW} ${className}`}
      {...props}
    >
      {children}
      {marked && <Icon name="check" className="h-4 w-4" />}
    </button>
  );
}

/** An on/off item. */
export function MenuCheckbox({ checked, children, ...props }: ItemProps & { checked: boolean }) {
  return (
    <button
      type="button"
      role="menuitemcheckbox"
      aria-checked={checked}
      tabIndex={-1}
      className={ROW}
      {...props}
    >
      <span className="flex-1">{children}</span>
      <span
        className={`flex h-5 w-5 items-center justify-center rounded border-2 ${checked ? 'border-accent bg-accent' : 'border-white/50'}`}
        aria-hidden="true"
      >
        {checked && <Icon name="check" className="h-4 w-4" />}
      </span>
    </button>
  );
}

/** A row that opens another menu, with the current value. */
export function MenuLink({
  open,
  to,
  label,
  value,
  testId,
}: {
  open: OpenMenu;
  to: string;
  label: string;
  value?: string | null | undefined;
  testId: string;
}) {
  return (
    <MenuItem onClick={() => open(to)} data-opens={to} data-testid={testId}>
      <span className="flex-1">{label}</span>
      {value && <span className="text-white/60">{value}</span>}
      <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
    </MenuItem>
  );
}

/**
 * Why a row's action failed: shown under the row (which it describes) and said once, assertively, by
 * the card's alert (a menu may hold only items).
 */
export function RowError({ id, text }: { id: string; text: string }) {
  const { announce } = useContext(FrameContext);
  useEffect(() => announce(text), [announce, text]);
  return (
    <p id={id} className="px-3 pb-2 text-xs text-red-400">
      {text}
    </p>
  );
}

/** The small spinner of a row that is loading. */
export function RowSpinner({ label }: { label?: string }) {
  return (
    <span
      className="h-4 w-4 animate-spin rounded-full border-2 border-white/30 border-t-white"
      role={label ? 'img' : undefined}
      aria-label={label}
    />
  );
}

/** A caption language's name in the interface language ("custom" and "und" have their own). */
export function useLanguageName() {
  const { t, i18n } = useTranslation(['player']);
  return (code: string) => {
    if (code === 'custom') return t('player.captions.custom');
    if (code === 'und') return t('player.captions.unknownLanguage');
    try {
      return displayNames([i18n.language], { type: 'language' }).of(code) ?? code;
    } catch {
      return code;
    }
  };
}

export const qualityLabel = (q: StreamQuality, t: TFunction<readonly ['player']>) =>
  q === 'unknown' ? t('player.quality.unknown') : q === '4k' ? '4K' : `${q}p`;
