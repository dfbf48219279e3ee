import { fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore } from '../../stores/index.ts';
import { ListsPicker } from './lists-picker.tsx';
import { NamedLists } from './named-lists.tsx';

const alien = { tmdbId: '348', type: 'movie' as const, title: 'Alien', year: 1979, poster: null };
const coco = { tmdbId: '354912', type: 'movie' as const, title: 'Coco', year: 2017, poster: null };
const heat = { tmdbId: '949', type: 'movie' as const, title: 'Heat', year: 1995, poster: null };

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ instanceName: 'Marquee', variant: 'discovery' } as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  const library = useLibraryStore.getState();
  library.setBookmarkLists(alien, ['Halloween']);
  library.setBookmarkLists(coco, ['Halloween', 'With the kids']);
  library.addBookmark(heat);
  library.setGroupOrder(['With the kids', 'Halloween']);
});

const renderIt = (ui: React.ReactNode) =>
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>{ui}</MemoryRouter>
    </I18nextProvider>,
  );

const headings = () => screen.getAllByTestId('named-list').map((s) => s.querySelector('h3')!.textContent);
const groupsOf = (id: string) => useLibraryStore.getState().bookmarks[`movie:${id}`]?.groups ?? [];

describe('My List’s named lists', () => {
  it('each list in the viewer’s order with its titles; moved with buttons', () => {
    renderIt(<NamedLists />);
    expect(headings()).toEqual(['With the kids1 title', 'Halloween2 titles']);
    const kids = screen.getAllByTestId('named-list')[0]!;
    expect(within(kids).getByText('Coco')).toBeTruthy();
    expect(within(kids).queryByText('Heat')).toBeNull();
    expect(
      (within(kids).getByRole('button', { name: 'Move With the kids up' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Move Halloween up' }));
    expect(useLibraryStore.getState().groupOrder).toEqual(['Halloween', 'With the kids']);
    expect(headings()).toEqual(['Halloween2 titles', 'With the kids1 title']);
  });

  it('renamed on every title that has it; deleted with its titles kept on My List', () => {
    renderIt(<NamedLists />);
    fireEvent.click(screen.getByRole('button', { name: 'Rename With the kids' }));
    const name = screen.getByDisplayValue('With the kids');
    fireEvent.change(name, { target: { value: 'Halloween' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toBe('You already have a list with this name.');
    fireEvent.change(name, { target: { value: '  Family  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(groupsOf('354912')).toEqual(['Halloween', 'Family']);
    expect(headings()).toEqual(['Family1 title', 'Halloween2 titles']);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Halloween' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Its titles stay on My List.');
    fireEvent.click(screen.getByRole('button', { name: 'Delete list' }));
    expect(headings()).toEqual(['Family1 title']);
    expect(groupsOf('348')).toEqual([]);
    expect(useLibraryStore.getState().bookmarks['movie:348']).toBeTruthy();
  });

  it('a new list starts empty; a blank name is refused with words', () => {
    renderIt(<NamedLists />);
    const field = screen.getByLabelText('New list name');
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(screen.getByRole('alert').textContent).toBe('A list name has 1 to 100 characters.');
    fireEvent.change(field, { target: { value: 'Scary' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(headings()).toEqual(['With the kids1 title', 'Halloween2 titles', 'Scary0 titles']);
    expect(
      screen.getByText('Nothing on this list yet. Add titles from their page, with Lists.'),
    ).toBeTruthy();
  });
});

describe('a title page’s Lists', () => {
  it('the title’s lists as checkboxes; a new list made there has the title on it', () => {
    renderIt(<ListsPicker media={{ id: '949', type: 'movie', title: 'Heat', year: 1995, poster: null }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Lists' }));
    const halloween = screen.getByRole('checkbox', { name: 'Halloween' }) as HTMLInputElement;
    expect(halloween.checked).toBe(false);
    fireEvent.click(halloween);
    expect(groupsOf('949')).toEqual(['Halloween']);
    expect(screen.getByRole('button', { name: 'On 1 list' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.change(screen.getByLabelText('New list name'), { target: { value: 'Heists' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(groupsOf('949')).toEqual(['Halloween', 'Heists']);
    expect(useLibraryStore.getState().groupOrder).toEqual(['With the kids', 'Halloween', 'Heists']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Halloween' }));
    expect(groupsOf('949')).toEqual(['Heists']);
  });
});
