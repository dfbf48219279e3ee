import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { useRejectedChanges } from '../../lib/sync/rejected-changes.ts';
import type { OutboxOp } from '../../stores/library/outbox.ts';
import { RejectedChanges } from './rejected-changes.tsx';

let i18next: i18n;
const bookmark: OutboxOp = {
  id: 'b1',
  at: 1,
  kind: 'bookmark-add',
  type: 'movie',
  tmdbId: '603',
  meta: { title: 'The Matrix', year: 1999, poster: null },
};
const settings: OutboxOp = {
  id: 's1',
  at: 2,
  kind: 'settings',
  settings: { applicationTheme: 'x'.repeat(5000) },
};

beforeEach(async () => {
  i18next = await initI18n();
  setAppStorage(memoryStorage());
  useRejectedChanges.controls.hydrate();
});

const renderIt = (variant?: 'banner' | 'panel') =>
  render(
    <I18nextProvider i18n={i18next}>
      <RejectedChanges {...(variant ? { variant } : {})} />
    </I18nextProvider>,
  );

describe('refused changes notice', () => {
  it('says nothing while the server refused nothing', () => {
    renderIt();
    expect(screen.queryByTestId('rejected-changes-notice')).toBeNull();
  });

  it('tells the user once, lists what and why, and stays away once dismissed', async () => {
    useRejectedChanges
      .getState()
      .add(bookmark, { status: 400, code: 'validation_failed', message: 'The request is not valid' }, 1);
    useRejectedChanges
      .getState()
      .add(settings, { status: 413, code: 'payload_too_large', message: 'Request body is too large' }, 2);
    const view = renderIt();
    expect((await screen.findByTestId('rejected-changes-notice')).textContent).toContain(
      '2 changes could not be saved: the server refused them.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    const list = screen.getByTestId('rejected-changes-list').textContent;
    expect(list).toContain('Add The Matrix to My List — the server found it invalid');
    expect(list).toContain('Settings — too large for the server');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('rejected-changes-notice')).toBeNull();
    view.unmount();
    // After a reload: not shown again, but still on My List until forgotten.
    renderIt().unmount();
    expect(screen.queryByTestId('rejected-changes-notice')).toBeNull();
    renderIt('panel');
    expect((await screen.findByTestId('rejected-changes-panel')).textContent).toContain(
      '2 changes the server refused',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Forget them' }));
    expect(screen.queryByTestId('rejected-changes-panel')).toBeNull();
  });
});
