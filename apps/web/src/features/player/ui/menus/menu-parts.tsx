import type { TFunction } from 'i18next';
import type { StreamQuality } from '../../core/quality.ts';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../icons.tsx';

/** Opens a menu by its `?r=` path. */
export type OpenMenu = (path: string) => void;

/** One row of a menu (a button or a labelled control). */
export const ROW =
  'flex min-h-11 w-full items-center gap-3 rounded-lg px-3 py-2 text-start text-sm text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white disabled:cursor-not-allowed disabled:opacity-40';

/**
 * The frame of every menu: a titled dialog with a way back (or out). It takes focus when it opens (Tab
 * then walks its rows); Escape closes the menus and focus returns to the button that opened them
 * (player-view.tsx).
 */
export function MenuCard({
  title,
  back,
  onBack,
  children,
  testId,
}: {
  title: string;
  /** The back button's label. */
  back?: string;
  onBack?: () => void;
  children: ReactNode;
  testId: string;
}) {
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    card.current?.focus({ preventScroll: true });
  }, []);
  return (
    <div
      ref={card}
      tabIndex={-1}
      className="flex max-h-[70vh] w-[343px] max-w-[calc(100vw-2rem)] flex-col overflow-hidden rounded-xl bg-neutral-900/95 text-white shadow-2xl outline-none backdrop-blur"
      data-testid={testId}
      role="dialog"
      aria-label={title}
    >
      <div className="flex items-center gap-2 border-b border-white/10 px-3 py-2">
        {onBack && (
          <button
            type="button"
            onClick={onBack}
            className="inline-flex h-11 w-11 items-center justify-center rounded-full hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
            aria-label={back}
          >
            <Icon name="arrowLeft" className="h-5 w-5" />
          </button>
        )}
        <h2 className="text-sm font-bold">{title}</h2>
      </div>
      <div className="overflow-y-auto p-2">{children}</div>
    </div>
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
    <button type="button" className={ROW} onClick={() => open(to)} data-testid={testId}>
      <span className="flex-1">{label}</span>
      {value && <span className="text-white/60">{value}</span>}
      <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
    </button>
  );
}

/** The small spinner of a row that is loading. */
export function RowSpinner({ label }: { label?: string }) {
  return (
    <span
      className="h-4 w-4 animate-spin rounded-full border-2 border-white/30 border-t-white"
      {...(label ? { 'aria-label': label } : {})}
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
      return new Intl.DisplayNames([i18n.language], { type: 'language' }).of(code) ?? code;
    } catch {
      return code;
    }
  };
}

export const qualityLabel = (q: StreamQuality, t: TFunction<readonly ['player']>) =>
  q === 'unknown' ? t('player.quality.unknown') : q === '4k' ? '4K' : `${q}p`;
