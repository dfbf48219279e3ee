import { useEffect, useRef } from 'react';
import { CloseIcon } from '../../components/close-icon.tsx';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { asksSearchFocus } from './search-focus.ts';
import { SearchIcon } from './search-icon.tsx';
import { useSlashFocus } from './use-slash-focus.ts';
import { useRandomPhrase } from '../../lib/use-random-phrase.ts';

export interface SearchBarProps {
  value: string;
  onChange: (value: string) => void;
  onClear: () => void;
}

/**
 * The search box: "/" focuses it when no input has focus, and so does arriving from the phone header's
 * search button; Enter blurs it; the clear button resets.
 */
export function SearchBar({ value, onChange, onClear }: SearchBarProps) {
  const { t } = useTranslation(['home']);
  const placeholder = useRandomPhrase('home.search.placeholder');
  const input = useRef<HTMLInputElement>(null);
  const focusOnArrival = asksSearchFocus(useLocation().state);

  useSlashFocus(input);
  useEffect(() => {
    if (focusOnArrival) input.current?.focus();
  }, [focusOnArrival]);

  return (
    <form
      role="search"
      className="relative w-full"
      onSubmit={(e) => {
        e.preventDefault();
        input.current?.blur();
      }}
    >
      <label htmlFor="search-input" className="sr-only">
        {t('home.search.label')}
      </label>
      <SearchIcon className="pointer-events-none absolute start-4 top-1/2 h-5 w-5 -translate-y-1/2 text-fg-muted" />
      <input
        ref={input}
        id="search-input"
        type="search"
        autoComplete="off"
        enterKeyHint="search"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
        className="h-14 w-full rounded-full border border-white/10 bg-surface-2 ps-12 pe-14 text-base text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none [&::-webkit-search-cancel-button]:hidden"
      />
      {value && (
        <button
          type="button"
          onClick={() => {
            onClear();
            input.current?.focus();
          }}
          className="absolute end-1.5 top-1/2 flex h-11 w-11 -translate-y-1/2 items-center justify-center rounded-full text-fg-muted hover:bg-surface-3 hover:text-fg"
          aria-label={t('home.search.clear')}
        >
          <CloseIcon />
        </button>
      )}
    </form>
  );
}
