import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { paths } from '../../lib/paths.ts';

/** The search waits this long after the last keystroke: one request per pause in typing. */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * The search text lives in the path (/browse/{query}) so results can be shared and survive reloads.
 * Every keystroke replaces the URL; an empty query goes back to /, and so does opening /browse/ without one.
 * `query` is what to search for: the text once it has not changed for 500 ms (at once for a query the page
 * was opened with), never the text as it is being typed.
 */
export function useSearchRoute() {
  const params = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [text, setText] = useState(() => params.query ?? '');
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS).trim();
  const emptyBrowse = /^\/browse(\/|$)/.test(pathname) && !(params.query ?? '').trim();

  useEffect(() => {
    if (emptyBrowse) void navigate(paths.home, { replace: true });
  }, [emptyBrowse, navigate]);

  const onChange = useCallback(
    (value: string) => {
      setText(value);
      void navigate(paths.browse(value), { replace: true });
    },
    [navigate],
  );
  const onClear = useCallback(() => onChange(''), [onChange]);

  return {
    text,
    query: debounced,
    isDebouncing: text.trim() !== debounced,
    onChange,
    onClear,
  };
}

export type SearchRoute = ReturnType<typeof useSearchRoute>;
