import { useId, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { disableCaptions } from '../../captions/caption-actions.ts';
import { uploadExtensions } from '../../captions/parse.ts';
import { playerStore, usePlayer } from '../../core/player-store.ts';
import type { CaptionListItem, ImageSubtitleItem } from '../../core/types.ts';
import {
  useCaptionChoice,
  useCaptionUpload,
  type CaptionErrorCode,
} from '../../session/use-caption-choice.ts';
import { Icon } from '../icons.tsx';
import { captionSections, type OwnRow } from './caption-sections.ts';
import {
  MenuCard,
  MenuGroup,
  MenuItem,
  MenuLink,
  MenuList,
  MenuRadio,
  RowError,
  RowSpinner,
  useLanguageName,
  type OpenMenu,
} from './menu-parts.tsx';

/** A forced track (signs, foreign dialogue), after the row's name. */
function ForcedBadge() {
  const { t } = useTranslation(['player']);
  return (
    <>
      {' '}
      <span className="shrink-0 rounded bg-white/10 px-1.5 py-0.5 text-xs" data-testid="caption-forced">
        {t('player.captions.forced')}
      </span>
    </>
  );
}

function CaptionRow({ item, name, close }: { item: CaptionListItem; name: string; close(): void }) {
  const { t } = useTranslation(['global', 'player']);
  const selected = usePlayer((s) => s.caption?.id === item.id);
  const { state, choose } = useCaptionChoice();
  const errorId = useId();
  const failed = state.kind === 'failed';
  return (
    <>
      <MenuRadio
        checked={selected}
        data-testid="caption-option"
        data-language={item.language}
        aria-describedby={failed ? errorId : undefined}
        onClick={() => choose(item, close)}
      >
        <span className="min-w-0 flex-1">
          {name}
          {/* The file's own name of the track (SDH, Commentary), after its language. */}
          {item.label && <span className="text-white/60"> · {item.label}</span>}
        </span>
        {item.forced && <ForcedBadge />}
        {state.kind === 'loading' && <RowSpinner label={t('global.loading')} />}
      </MenuRadio>
      {failed && <RowError id={errorId} text={t(`player.captions.errors.${state.code}`)} />}
    </>
  );
}

/**
 * A picture subtitle of a library title (PGS, VobSub): choosing it plays the title again with it burned
 * into the picture, from where the viewer is (the store's `chooseImageSubtitle`), which the row says.
 */
function ImageSubtitleRow({ item, name, close }: { item: ImageSubtitleItem; name: string; close(): void }) {
  const { t } = useTranslation(['player']);
  const selected = usePlayer((s) => s.imageSubtitleId === item.id);
  return (
    <MenuRadio
      checked={selected}
      data-testid="caption-option"
      data-language={item.language}
      data-kind="image"
      onClick={() => {
        playerStore.getState().chooseImageSubtitle(item.id);
        close();
      }}
    >
      <span className="flex min-w-0 flex-1 flex-col">
        <span className="break-words">
          {name}
          {item.label && <span className="text-white/60"> · {item.label}</span>}
        </span>
        {/* Screen readers hear "English · Burned into the picture", not "EnglishBurned…". */}{' '}
        <span className="break-words text-xs text-white/60" data-testid="caption-burned-in">
          {t('player.captions.burnedIn')}
        </span>
      </span>
      {item.forced && <ForcedBadge />}
    </MenuRadio>
  );
}

/** The store's captions the search keeps (see `captionSections`), and the language names they show. */
function useCaptionSections(search: string) {
  const languageName = useLanguageName();
  const list = usePlayer((s) => s.captionList);
  const images = usePlayer((s) => s.imageSubtitles);
  return { languageName, ...captionSections(list, images, search, languageName) };
}

/** Off: no text caption and no picture subtitle. */
function CaptionOffRow({ close }: { close(): void }) {
  const { t } = useTranslation(['player']);
  const off = usePlayer((s) => s.caption === null && s.imageSubtitleId === null);
  return (
    <MenuRadio
      checked={off}
      onClick={() => {
        disableCaptions();
        close();
      }}
      data-testid="caption-off"
    >
      <span className="flex-1">{t('player.captions.off')}</span>
    </MenuRadio>
  );
}

function SourceCaptionsGroup({
  rows,
  languageName,
  close,
}: {
  rows: OwnRow[];
  languageName(code: string): string;
  close(): void;
}) {
  const { t } = useTranslation(['player']);
  return (
    <MenuGroup label={t('player.captions.sourceCaptions')} testId="source-captions">
      {rows.length === 0 ? (
        <p className="px-3 py-2 text-sm text-white/60">{t('player.captions.none')}</p>
      ) : (
        rows.map((row) =>
          row.kind === 'text' ? (
            <CaptionRow key={row.item.id} item={row.item} name={languageName(row.language)} close={close} />
          ) : (
            <ImageSubtitleRow
              key={`image-${row.item.id}`}
              item={row.item}
              name={languageName(row.language)}
              close={close}
            />
          ),
        )
      )}
    </MenuGroup>
  );
}

function OpenSubtitlesGroup({
  items,
  languageName,
  close,
}: {
  items: CaptionListItem[];
  languageName(code: string): string;
  close(): void;
}) {
  const { t } = useTranslation(['player']);
  if (items.length === 0) return null;
  return (
    <MenuGroup label={t('player.captions.openSubtitles')} testId="opensubtitles-captions">
      {items.map((c) => (
        <CaptionRow key={c.id} item={c} name={languageName(c.language)} close={close} />
      ))}
    </MenuGroup>
  );
}

/** The hidden file input the upload row opens, and the upload's error: above the menu, not items. */
function CaptionUploadInput({
  inputRef,
  upload,
  error,
}: {
  inputRef: Ref<HTMLInputElement>;
  upload(file: File | undefined): void;
  error: CaptionErrorCode | null;
}) {
  const { t } = useTranslation(['player']);
  return (
    <>
      <input
        ref={inputRef}
        type="file"
        className="hidden"
        accept={uploadExtensions.map((e) => `.${e}`).join(',')}
        onChange={(e) => upload(e.target.files?.[0])}
        data-testid="caption-file"
        aria-label={t('player.captions.upload')}
      />
      {error && (
        <p className="px-3 pb-2 text-xs text-red-400" role="alert">
          {t(`player.captions.errors.${error}`)}
        </p>
      )}
    </>
  );
}

/**
 * `/captions` and `/settings/captions`: off, upload, the source's captions (forced ones first, each with
 * its own name from the file; a library title's picture subtitles among them) and OpenSubtitles'.
 * Picking one (or Off) closes the menus; focus goes back to the button that opened them. The search
 * field and the upload's error are not items: they sit above the menu.
 */
export function CaptionsMenu({
  open,
  close,
  parent,
}: {
  open: OpenMenu;
  close(): void;
  /** Set when opened from the settings. */
  parent?: () => void;
}) {
  const { t } = useTranslation(['player']);
  const [search, setSearch] = useState('');
  const { languageName, own, openSubtitles } = useCaptionSections(search);
  const { error: uploadError, upload } = useCaptionUpload();
  const file = useRef<HTMLInputElement>(null);
  return (
    <MenuCard
      title={t('player.settings.subtitles')}
      testId="captions-menu"
      back={
        parent ? { label: t('player.menu.back'), go: parent } : { label: t('player.menu.close'), go: close }
      }
      parent={parent}
    >
      <div
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          upload(e.dataTransfer.files[0]);
        }}
      >
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('player.captions.search')}
          aria-label={t('player.captions.search')}
          className="mb-2 w-full rounded-lg bg-white/10 px-3 py-2 text-sm text-white placeholder:text-white/50"
        />
        <CaptionUploadInput inputRef={file} upload={upload} error={uploadError} />
        <MenuList>
          <CaptionOffRow close={close} />
          <MenuItem onClick={() => file.current?.click()} data-testid="caption-upload">
            <Icon name="upload" className="h-4 w-4" />
            <span className="flex-1">{t('player.captions.upload')}</span>
          </MenuItem>
          <SourceCaptionsGroup rows={own} languageName={languageName} close={close} />
          <OpenSubtitlesGroup items={openSubtitles} languageName={languageName} close={close} />
          <div className="mt-2 border-t border-white/10">
            <MenuLink
              open={open}
              to="/settings/captions/settings"
              label={t('player.captions.customize')}
              testId="caption-customize"
            />
          </div>
        </MenuList>
      </div>
    </MenuCard>
  );
}
