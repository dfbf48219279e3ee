import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSlashFocus } from './use-slash-focus.ts';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths.ts';

/** The signed-in header's search box (pages other than home): submitting opens /browse/{query}. "/" focuses it. */
export function HeaderSearch() {
  const { t } = useTranslation(['home', 'navigation']);
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);

  useSlashFocus(input);

  return (
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
        className="h-9 w-48 rounded-full border border-white/10 bg-surface-2 px-4 text-sm text-fg placeholder:text-fg-muted focus:border-accent focus:outline-none lg:w-64"
        data-testid="header-search"
      />
    </form>
  );
}
