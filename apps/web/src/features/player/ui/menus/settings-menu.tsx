import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { usePlayerPrefsStore } from '../../../../stores/index.ts';
import { requests, seekBy, usePlayer } from '../../core/player-store.ts';
import { usePlayerDeps } from '../../session/player-deps.tsx';
import { useSourceName } from '../../session/use-source-switch.ts';
import { partyIdOf } from '../../party/use-party-sync.ts';
import { Icon } from '../icons.tsx';
import { CastLauncher } from '../player-bars.tsx';
import { useBarLayout } from '../player-width.ts';
import { toggleMute } from '../volume.ts';
import {
  MenuCard,
  MenuCheckbox,
  MenuGroup,
  MenuItem,
  MenuLink,
  MenuList,
  qualityLabel,
  ROW,
  useLanguageName,
  type OpenMenu,
} from './menu-parts.tsx';

/**
 * The volume and Cast when the bar had no room for them (a phone). A slider is not a menu item, so they
 * sit above the menu; the arrow keys still reach them.
 */
function MovedVolume({ isShow }: { isShow: boolean }) {
  const { t } = useTranslation(['player']);
  const { menu } = useBarLayout(isShow);
  const volume = usePlayer((s) => s.playback.volume);
  const muted = usePlayer((s) => s.playback.muted);
  const canChange = usePlayer((s) => s.capabilities.canChangeVolume);
  if (!menu.includes('volume') && !menu.includes('cast')) return null;
  const silent = muted || volume === 0;
  return (
    <div className="mb-1 border-b border-white/10 pb-1" data-testid="moved-volume">
      {menu.includes('volume') && (
        <div className="flex items-center gap-1">
          <button
            type="button"
            // Beside the slider the button is as wide as its icon (`!`: ROW's w-full would win otherwise and
            // squeeze the slider to its thumb).
            className={`${ROW} ${canChange !== false ? 'w-auto! shrink-0' : ''}`}
            onClick={toggleMute}
            aria-pressed={muted}
            data-testid="menu-mute"
          >
            <Icon name={silent ? 'volumeMuted' : 'volume'} className="h-5 w-5" />
            <span className={canChange !== false ? 'sr-only' : 'flex-1'}>
              {silent ? t('player.controls.unmute') : t('player.controls.mute')}
            </span>
          </button>
          {canChange !== false && (
            <input
              type="range"
              min={0}
              max={1}
              step={0.01}
              value={silent ? 0 : volume}
              onChange={(e) => requests.setVolume(Number(e.target.value))}
              aria-label={t('player.controls.volume')}
              data-testid="menu-volume-slider"
              className="min-h-11 min-w-0 flex-1 accent-[var(--color-fg-accent)]"
            />
          )}
        </div>
      )}
      {menu.includes('cast') && (
        <div className="flex items-center px-1">
          <CastLauncher />
        </div>
      )}
    </div>
  );
}

const MOVED_ITEMS = ['episodes', 'skip', 'pip', 'airplay'] as const;

/** The bar's other controls that did not fit it (a phone): episodes, skipping, picture in picture, AirPlay. */
function MovedItems({ isShow, open }: { isShow: boolean; open: OpenMenu }) {
  const { t } = useTranslation(['player']);
  const { menu } = useBarLayout(isShow);
  if (!MOVED_ITEMS.some((c) => menu.includes(c))) return null;
  return (
    <div className="mb-1 border-b border-white/10 pb-1" data-testid="moved-controls">
      {menu.includes('episodes') && (
        <MenuLink open={open} to="/episodes" label={t('player.controls.episodes')} testId="menu-episodes" />
      )}
      {menu.includes('skip') && (
        <div className="flex gap-1">
          <MenuItem onClick={() => seekBy(-10)} data-testid="menu-skip-back">
            <Icon name="back10" className="h-5 w-5" />
            <span className="flex-1">{t('player.controls.back10')}</span>
          </MenuItem>
          <MenuItem onClick={() => seekBy(10)} data-testid="menu-skip-forward">
            <Icon name="forward10" className="h-5 w-5" />
            <span className="flex-1">{t('player.controls.forward10')}</span>
          </MenuItem>
        </div>
      )}
      {menu.includes('pip') && (
        <MenuItem onClick={() => requests.togglePictureInPicture()} data-testid="menu-pip">
          <Icon name="pip" className="h-5 w-5" />
          <span className="flex-1">{t('player.controls.pip')}</span>
        </MenuItem>
      )}
      {menu.includes('airplay') && (
        <MenuItem onClick={() => requests.startAirplay()} data-testid="menu-airplay">
          <Icon name="airplay" className="h-5 w-5" />
          <span className="flex-1">{t('player.controls.airplay')}</span>
        </MenuItem>
      )}
    </div>
  );
}

/** Library titles with several audio tracks offer them; the value is the language playing. */
function AudioLink({ open }: { open: OpenMenu }) {
  const { t } = useTranslation(['player']);
  const languageName = useLanguageName();
  const audioTracks = usePlayer((s) => s.audioTracks);
  const audioTrackId = usePlayer((s) => s.audioTrackId);
  const activeAudio = audioTracks.find((a) => a.id === audioTrackId);
  if (audioTracks.length < 2) return null;
  return (
    <MenuLink
      open={open}
      to="/settings/audio"
      label={t('player.settings.audio')}
      value={activeAudio ? languageName(activeAudio.language) : null}
      testId="settings-audio"
    />
  );
}

/** "Enable subtitles": off when on, else the last used language (the C key's action). */
function SubtitlesToggle({ on }: { on: boolean }) {
  const { t } = useTranslation(['player']);
  const { toggleCaptions } = usePlayerDeps();
  return (
    <MenuCheckbox checked={on} onClick={() => void toggleCaptions()} data-testid="toggle-subtitles">
      {t('player.settings.enableSubtitles')}
    </MenuCheckbox>
  );
}

/**
 * `/settings`: the controls that did not fit the bar, quality, source, audio (tracks of a library title),
 * subtitles, playback speed and the shortcuts.
 */
export function SettingsMenu({
  open,
  onClose,
  isShow,
}: {
  open: OpenMenu;
  onClose(): void;
  isShow: boolean;
}) {
  const { t } = useTranslation(['player']);
  const languageName = useLanguageName();
  const quality = usePlayer((s) => s.currentQuality);
  const automatic = usePlayerPrefsStore((s) => s.automaticQuality);
  const sourceId = usePlayer((s) => s.sourceId);
  const caption = usePlayer((s) => s.caption);
  // A picture subtitle burned in counts as subtitles on, in its language.
  const image = usePlayer((s) => s.imageSubtitles.find((i) => i.id === s.imageSubtitleId));
  const subtitleLanguage = caption?.language ?? image?.language ?? null;
  const rate = usePlayer((s) => s.playback.playbackRate);
  const sourceName = useSourceName(sourceId);
  const inParty = partyIdOf(useLocation().search) !== null;
  // A library file's intros and credits (decision 111): other sources have none.
  const hasSegments = usePlayer((s) => s.segments !== null);
  return (
    <MenuCard
      title={t('player.settings.title')}
      testId="settings-menu"
      back={{ label: t('player.menu.close'), go: onClose }}
    >
      <MovedVolume isShow={isShow} />
      <MenuList>
        <MovedItems isShow={isShow} open={open} />
        <MenuGroup label={t('player.settings.video')}>
          <MenuLink
            open={open}
            to="/settings/quality"
            label={t('player.settings.quality')}
            value={
              quality
                ? `${automatic ? `${t('player.quality.auto')} · ` : ''}${qualityLabel(quality, t)}`
                : null
            }
            testId="menu-quality"
          />
          <MenuLink
            open={open}
            to="/settings/source"
            label={t('player.settings.source')}
            value={sourceName}
            testId="menu-source"
          />
        </MenuGroup>
        <MenuGroup label={t('player.settings.experience')}>
          <AudioLink open={open} />
          <SubtitlesToggle on={subtitleLanguage !== null} />
          <MenuLink
            open={open}
            to="/settings/captions"
            label={t('player.settings.subtitles')}
            value={subtitleLanguage ? languageName(subtitleLanguage) : t('player.captions.off')}
            testId="menu-captions"
          />
          {hasSegments && (
            <MenuLink
              open={open}
              to="/settings/segments"
              label={t('player.segments.title')}
              testId="menu-segments"
            />
          )}
          <MenuLink
            open={open}
            to="/settings/party"
            label={t('player.party.title')}
            value={inParty ? t('player.party.on') : null}
            testId="menu-party"
          />
          <MenuLink
            open={open}
            to="/settings/playback"
            label={t('player.settings.playback')}
            value={t('player.speed.value', { rate })}
            testId="menu-playback"
          />
          <MenuLink open={open} to="/shortcuts" label={t('player.shortcuts.title')} testId="menu-shortcuts" />
        </MenuGroup>
      </MenuList>
    </MenuCard>
  );
}
