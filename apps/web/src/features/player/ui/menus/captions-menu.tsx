import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { disableCaptions } from '../../captions/caption-actions.ts';
import { sortCaptions } from '../../captions/caption-fetch.ts';
import { uploadExtensions } from '../../captions/parse.ts';
import { usePlayer } from '../../core/player-store.ts';
import type { CaptionListItem } from '../../core/types.ts';
import {
  useCaptionChoice,
  useCaptionUpload,
  type CaptionErrorCode,
} from '../../session/use-caption-choice.ts';
import { Icon } from '../icons.tsx';
import { MenuCard, ROW, RowSpinner, useLanguageName, type OpenMenu } from './menu-parts.tsx';

function CaptionError({ code }: { code: CaptionErrorCode }) {
  const { t } = useTranslation(['player']);
  return (
    <p className="px-3 pb-2 text-xs text-red-400" role="alert">
      {t(`player.captions.errors.${code}`)}
    </p>
  );
}

function CaptionRow({ item, name, close }: { item: CaptionListItem; name: string; close(): void }) {
  const { t } = useTranslation(['global']);
  const selected = usePlayer((s) => s.caption?.id === item.id);
  const { state, choose } = useCaptionChoice();
  return (
    <li>
      <button
        type="button"
        className={ROW}
        data-testid="caption-option"
        data-language={item.language}
        aria-current={selected ? 'true' : undefined}
        onClick={() => choose(item, close)}
      >
        <span className="flex-1">{name}</span>
        {state.kind === 'loading' && <RowSpinner label={t('global.loading')} />}
        {selected && <Icon name="check" className="h-4 w-4" />}
      </button>
      {state.kind === 'failed' && <CaptionError code={state.code} />}
    </li>
  );
}

/**
 * `/captions` and `/settings/captions`: off, upload, the source's captions and OpenSubtitles'. Picking
 * one (or Off) closes the menus; focus goes back to the button that opened them.
 */
export function CaptionsMenu({ open, back, close }: { open: OpenMenu; back(): void; close(): void }) {
  const { t } = useTranslation(['player']);
  const languageName = useLanguageName();
  const list = usePlayer((s) => s.captionList);
  const caption = usePlayer((s) => s.caption);
  const [search, setSearch] = useState('');
  const { error: uploadError, upload } = useCaptionUpload();
  const file = useRef<HTMLInputElement>(null);
  const filtered = list.filter(
    (c) => !search || languageName(c.language).toLowerCase().includes(search.toLowerCase()),
  );
  const own = sortCaptions(
    filtered.filter((c) => !c.opensubtitles),
    languageName,
  );
  const openSubtitles = sortCaptions(
    filtered.filter((c) => c.opensubtitles),
    languageName,
  );
  return (
    <MenuCard
      title={t('player.settings.subtitles')}
      testId="captions-menu"
      back={t('player.menu.back')}
      onBack={back}
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
        <button
          type="button"
          className={ROW}
          onClick={() => {
            disableCaptions();
            close();
          }}
          aria-current={caption === null ? 'true' : undefined}
          data-testid="caption-off"
        >
          <span className="flex-1">{t('player.captions.off')}</span>
          {caption === null && <Icon name="check" className="h-4 w-4" />}
        </button>
        <button
          type="button"
          className={ROW}
          onClick={() => file.current?.click()}
          data-testid="caption-upload"
        >
          <Icon name="upload" className="h-4 w-4" />
          <span className="flex-1">{t('player.captions.upload')}</span>
        </button>
        <input
          ref={file}
          type="file"
          className="hidden"
          accept={uploadExtensions.map((e) => `.${e}`).join(',')}
          onChange={(e) => upload(e.target.files?.[0])}
          data-testid="caption-file"
          aria-label={t('player.captions.upload')}
        />
        {uploadError && <CaptionError code={uploadError} />}
        <p className="px-3 pt-2 text-xs font-semibold uppercase tracking-wide text-white/50">
          {t('player.captions.sourceCaptions')}
        </p>
        {own.length === 0 ? (
          <p className="px-3 py-2 text-sm text-white/60">{t('player.captions.none')}</p>
        ) : (
          <ul data-testid="source-captions">
            {own.map((c) => (
              <CaptionRow key={c.id} item={c} name={languageName(c.language)} close={close} />
            ))}
          </ul>
        )}
        {openSubtitles.length > 0 && (
          <>
            <p className="px-3 pt-2 text-xs font-semibold uppercase tracking-wide text-white/50">
              {t('player.captions.openSubtitles')}
            </p>
            <ul data-testid="opensubtitles-captions">
              {openSubtitles.map((c) => (
                <CaptionRow key={c.id} item={c} name={languageName(c.language)} close={close} />
              ))}
            </ul>
          </>
        )}
        <button
          type="button"
          className={`${ROW} mt-2 border-t border-white/10`}
          onClick={() => open('/settings/captions/settings')}
          data-testid="caption-customize"
        >
          <span className="flex-1">{t('player.captions.customize')}</span>
          <Icon name="chevronRight" className="h-4 w-4 text-white/50" />
        </button>
      </div>
    </MenuCard>
  );
}
