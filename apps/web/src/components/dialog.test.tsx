import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog } from './dialog.tsx';

/** A page with a control before and after the opener, and a dialog with three controls. */
function Page({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  const close = () => {
    onClose?.();
    setOpen(false);
  };
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <button type="button">Behind</button>
      {open && (
        <Dialog labelledBy="t" onClose={close}>
          <h2 id="t">Delete it?</h2>
          <a href="/help">Help</a>
          <button type="button" onClick={close} data-autofocus>
            Cancel
          </button>
          <button type="button">Delete</button>
        </Dialog>
      )}
    </>
  );
}

async function openDialog(onClose?: () => void) {
  const user = userEvent.setup();
  render(<Page onClose={onClose} />);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Delete it?' }) };
}

describe('Dialog', () => {
  it('takes focus on opening, on the control marked data-autofocus', async () => {
    const { dialog } = await openDialog();
    expect(dialog).toHaveProperty('open', true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
  });

  it('focuses the first control when none is marked', async () => {
    const user = userEvent.setup();
    function Plain() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
          {open && (
            <Dialog label="Plain" onClose={() => setOpen(false)}>
              <button type="button">First</button>
              <button type="button">Second</button>
            </Dialog>
          )}
        </>
      );
    }
    render(<Plain />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'First' }));
  });

  it('keeps Tab and Shift+Tab inside the dialog, wrapping at both ends', async () => {
    const { user, dialog } = await openDialog();
    const [help, cancel, remove] = [
      screen.getByRole('link', { name: 'Help' }),
      screen.getByRole('button', { name: 'Cancel' }),
      screen.getByRole('button', { name: 'Delete' }),
    ];
    await user.tab();
    expect(document.activeElement).toBe(remove);
    await user.tab();
    expect(document.activeElement).toBe(help);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(remove);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(cancel);
    for (let i = 0; i < 7; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });

  it('closes on Esc and gives focus back to the opener', async () => {
    const onClose = vi.fn();
    const { user } = await openDialog(onClose);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
  });

  it('closes on the browser’s own cancel (Esc on a native modal dialog)', async () => {
    const onClose = vi.fn();
    const { dialog } = await openDialog(onClose);
    const cancel = new Event('cancel', { cancelable: true });
    fireEvent(dialog, cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes on a click on the backdrop, not on a click inside the panel', async () => {
    const onClose = vi.fn();
    const { user, dialog } = await openDialog(onClose);
    await user.click(screen.getByRole('heading', { name: 'Delete it?' }));
    await user.click(dialog.firstElementChild!);
    expect(onClose).not.toHaveBeenCalled();
    // A press that starts inside the panel and ends on the backdrop is a text selection, not a dismissal.
    fireEvent.mouseDown(screen.getByRole('heading'));
    fireEvent.click(dialog);
    expect(onClose).not.toHaveBeenCalled();
    // Clicks on ::backdrop are dispatched to the dialog element itself.
    await user.click(dialog);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
  });

  it('gives focus back to the opener when its own Cancel closes it', async () => {
    const { user } = await openDialog();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open' }));
  });
});
