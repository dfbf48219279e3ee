import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { FOCUS_SEARCH } from './search-focus.ts';
import { SearchIcon } from './search-icon.tsx';
import { useSlashFocus } from './use-slash-focus.ts';

/**
 * The signed-in header's search (pages other than home). From sm up a box: submitting opens
 * /browse/{query}, "/" focuses it. On a phone, where the bar has no room for a box, a search button that
 * opens the home page's search with its field focused (it searches while the user types).
 */
export function HeaderSearch() {
  const { t } = useTranslation(['home', 'navigation']);
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);

  useSlashFocus(input);

  return (
    <>
      <Link
        to={paths.home}
        state={FOCUS_SEARCH}
        className="flex h-11 w-11 items-center justify-center rounded-full text-fg hover:bg-surface-2 sm:hidden"
        aria-label={t('home.search.label')}
        data-testid="header-search-button"
      >
        <SearchIcon className="h-5 w-5" />
      </Link>
      <form
        role="search"
        className="hidden sm:block"
        onSubmit={(e) => {
          e.preventDefault();
          const q = text.trim();
          if (q) void navigate(paths.browse(q));
          setText('');
          input.current?.blur();
        }}
      >
        <label htmlFor="header-search" className="sr-only">
          {t('home.search.label')}
        </label>
        <input
          ref={input}
          id="header-search"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('navigation.searchPlaceholder')}
          className="h-11 w-48 rounded-full border border-white/10 bg-surface-2 px-4 text-sm text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none lg:w-64"
          data-testid="header-search"
        />
      </form>
    </>
  );
}
