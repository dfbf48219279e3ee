import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaSummary } from '@marquee/contract';
import { optionalLazy } from './optional-lazy.tsx';

// The menu's code (and, as it renders, its words: the history catalog) comes on its first opening, not in
// the first view of `/` (decision 062's budget).
const CardMenu = optionalLazy(() =>
  import('./media-card-menu.tsx').then((m) => ({ default: m.MediaCardMenu })),
);

/**
 * A movie card's ⋯ button, in the poster's top corner across from the bookmark: shown on hover and while
 * the card has the keyboard's focus (its link or the button), always on a touch screen (no hover there).
 * The WAI-ARIA menu button (docs/decisions/084-accessibility-bar.md): Enter and Space open its menu on its
 * item (the optional arrows are left out: bytes of the first view).
 */
export function CardMenuButton({ media }: { media: MediaSummary }) {
  const { t } = useTranslation(['history']);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        id={id}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        data-card-menu=""
        aria-label={t('history.marks.more', { title: media.title })}
        onClick={() => setOpen(!open)}
        className="absolute top-1 start-1 flex h-11 w-11 items-center justify-center rounded-full text-white opacity-0 group-hover/card:opacity-100 group-focus-within/card:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-accent aria-expanded:opacity-100 [@media(hover:none)]:opacity-100"
      >
        <svg viewBox="0 0 24 24" className="h-8 w-8 rounded-full bg-black/70" aria-hidden="true">
          <path d="M7 12h0m5 0h0m5 0h0" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        </svg>
      </button>
      {open && <CardMenu labelledBy={id} button={button} media={media} close={close} />}
    </>
  );
}
