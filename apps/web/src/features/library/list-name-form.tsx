import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { cleanListName } from '../../stores/library/library-rules.ts';

/**
 * A list's name, for a new list or a renamed one: checked as the server checks it (1–100 characters, no
 * control characters) and against the viewer's other lists; `onSubmit` gets the clean name. Renaming
 * (`current`): the field starts with the name and takes the focus; keeping it unchanged is no error.
 */
export function ListNameForm({
  existing,
  onSubmit,
  current,
  onCancel,
}: {
  existing: readonly string[];
  onSubmit(name: string): void;
  current?: string;
  onCancel?(): void;
}) {
  const { t } = useTranslation(['lists']);
  const inputId = useId();
  const [name, setName] = useState(current ?? '');
  const [problem, setProblem] = useState<'invalid' | 'exists' | null>(null);
  const field = useRef<HTMLInputElement>(null);
  // Rename was pressed: the name is what comes next.
  useEffect(() => {
    if (current !== undefined) field.current?.focus();
  }, [current]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const clean = cleanListName(name);
    if (!clean) return setProblem('invalid');
    if (clean !== current && existing.includes(clean)) return setProblem('exists');
    onSubmit(clean);
    if (current === undefined) setName('');
    setProblem(null);
  };
  return (
    <form className="flex flex-wrap items-end gap-2" onSubmit={submit} data-testid="new-list-form">
      <label htmlFor={inputId} className="flex min-w-0 flex-1 basis-full flex-col gap-1 text-sm text-fg">
        {t('lists.nameLabel')}
        <input
          ref={field}
          id={inputId}
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.currentTarget.value)}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${inputId}-problem` : undefined}
          className="min-h-11 rounded-lg bg-surface-1 px-3 text-fg"
        />
      </label>
      <Button type="submit">{t(current === undefined ? 'lists.create' : 'lists.renameSave')}</Button>
      {onCancel && (
        <Button variant="ghost" onClick={onCancel}>
          {t('lists.cancel')}
        </Button>
      )}
      {problem && (
        <p id={`${inputId}-problem`} role="alert" className="basis-full text-sm text-fg-muted">
          {t(problem === 'invalid' ? 'lists.invalid' : 'lists.exists')}
        </p>
      )}
    </form>
  );
}
