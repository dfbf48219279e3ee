import { useCallback, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { paths } from '../../app/paths.ts';

/** The search waits this long after the last keystroke. */
const SEARCH_DEBOUNCE_MS = 500;

/**
 * The search text lives in the path (/browse/{query}) so results can be shared and survive reloads.
 * Every keystroke replaces the URL; an empty query goes back to /.
 */
export function useSearchRoute() {
  const params = useParams();
  const navigate = useNavigate();
  const [text, setText] = useState(() => params.query ?? '');
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);

  const onChange = useCallback(
    (value: string) => {
      setText(value);
      if (value.trim() === '') void navigate(paths.home, { replace: true });
      else void navigate(paths.browse(value), { replace: true });
    },
    [navigate],
  );
  const onClear = useCallback(() => onChange(''), [onChange]);

  return {
    text,
    debounced: debounced.trim(),
    isDebouncing: text.trim() !== debounced.trim(),
    onChange,
    onClear,
  };
}
