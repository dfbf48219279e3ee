import { useEffect, useRef, type ReactNode } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const focusablesIn = (root: HTMLElement) => Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE));

export interface DialogProps {
  /** Called on Esc, on a click on the backdrop, and by the dialog's own Cancel button if it has one. */
  onClose: () => void;
  /** The id of the dialog's heading; or give `label`. */
  labelledBy?: string;
  label?: string;
  /** `alertdialog` for confirmations of something that cannot be undone. */
  role?: 'dialog' | 'alertdialog';
  /** Classes of the panel (the dialog box itself). */
  className?: string;
  children: ReactNode;
  'data-testid'?: string;
}

/**
 * A modal dialog, mounted while it is open: the native `<dialog>` shown with `showModal()` (the page behind
 * becomes inert). On opening, focus moves to the element marked `data-autofocus`, else the first control;
 * Tab and Shift+Tab cycle inside; Esc and a click on the backdrop call `onClose`; on closing, focus returns
 * to the element that had it before.
 */
export function Dialog({
  onClose,
  labelledBy,
  label,
  role = 'dialog',
  className = '',
  children,
  'data-testid': testId,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const pressedOnBackdrop = useRef(false);

  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    const first = dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusablesIn(dialog)[0] ?? dialog;
    first.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected && opener !== document.body) opener.focus();
    };
  }, []);

  // The browser's own Esc (the `cancel` event) closes through onClose, so the parent's state stays the truth.
  useEffect(() => {
    const dialog = ref.current!;
    const onCancel = (e: Event) => {
      e.preventDefault();
      onClose();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => dialog.removeEventListener('cancel', onCancel);
  }, [onClose]);

  return (
    // A modal dialog is interactive: Esc, Tab and a click on its backdrop are its keyboard and mouse contract.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={ref}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-label={label}
      data-testid={testId}
      // Clicks on the ::backdrop reach the dialog element itself; the panel fills the dialog, so a press that
      // starts and ends on the dialog element, not inside the panel, is a click on the backdrop.
      className="m-auto max-h-[calc(100dvh-2rem)] tv:max-h-[calc(100dvh_-_2_*_var(--spacing-overscan-y))] w-[calc(100%-2rem)] max-w-md overflow-visible border-0 bg-transparent p-0 text-fg backdrop:bg-black/70"
      onMouseDown={(e) => {
        pressedOnBackdrop.current = e.target === e.currentTarget;
      }}
      onClick={(e) => {
        if (pressedOnBackdrop.current && e.target === e.currentTarget) onClose();
        pressedOnBackdrop.current = false;
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          onClose();
          return;
        }
        if (e.key !== 'Tab') return;
        const items = focusablesIn(e.currentTarget);
        if (items.length === 0) return e.preventDefault();
        const at = items.indexOf(document.activeElement as HTMLElement);
        const next = e.shiftKey
          ? at <= 0
            ? items[items.length - 1]
            : undefined
          : at === items.length - 1 || at < 0
            ? items[0]
            : undefined;
        if (next) {
          e.preventDefault();
          next.focus();
        }
      }}
    >
      <div
        className={`max-h-[calc(100dvh-2rem)] tv:max-h-[calc(100dvh_-_2_*_var(--spacing-overscan-y))] overflow-y-auto rounded-2xl bg-surface-2 p-6 shadow-2xl ${className}`}
      >
        {children}
      </div>
    </dialog>
  );
}
