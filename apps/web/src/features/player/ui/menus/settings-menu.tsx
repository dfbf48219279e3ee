import { useTranslation } from 'react-i18next';
import { usePlayerPrefsStore } from '../../../../stores/index.ts';
import { toggleCaptions } from '../../captions/caption-actions.ts';
import { requests, seekBy, usePlayer } from '../../core/player-store.ts';
import { useSourceName } from '../../session/use-source-switch.ts';
import { useBarLayout, toggleMute } from '../hooks.ts';
import { Icon } from '../icons.tsx';
import { CastLauncher } from '../player-bars.tsx';
import { MenuCard, MenuLink, qualityLabel, ROW, useLanguageName, type OpenMenu } from './menu-parts.tsx';

/** The bar's controls that did not fit it (a phone): episodes, skipping, volume, picture in picture… */
function MovedControls({ isShow, open }: { isShow: boolean; open: OpenMenu }) {
  const { t } = useTranslation(['player']);
  const { menu } = useBarLayout(isShow);
  const volume = usePlayer((s) => s.playback.volume);
  const muted = usePlayer((s) => s.playback.muted);
  const canChange = usePlayer((s) => s.capabilities.canChangeVolume);
  if (menu.length === 0) return null;
  const silent = muted || volume === 0;
  return (
    <div className="mb-1 border-b border-white/10 pb-1" data-testid="moved-controls">
      {menu.includes('episodes') && (
        <MenuLink open={open} to="/episodes" label={t('player.controls.episodes')} testId="menu-episodes" />
      )}
      {menu.includes('skip') && (
        <div className="flex gap-1">
          <button type="button" className={ROW} onClick={() => seekBy(-10)} data-testid="menu-skip-back">
            <Icon name="back10" className="h-5 w-5" />
            <span className="flex-1">{t('player.controls.back10')}</span>
          </button>
          <button type="button" className={ROW} onClick={() => seekBy(10)} data-testid="menu-skip-forward">
            <Icon name="forward10" className="h-5 w-5" />
            <span className="flex-1">{t('player.controls.forward10')}</span>
          </button>
        </div>
      )}
      {menu.includes('volume') && (
        <div className="flex items-center gap-1">
          <button
            type="button"
            className={`${ROW} ${canChange !== false ? 'w-auto' : ''}`}
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
              className="min-h-11 min-w-0 flex-1 accent-white"
            />
          )}
        </div>
      )}
      {menu.includes('pip') && (
        <button
          type="button"
          className={ROW}
          onClick={() => requests.togglePictureInPicture()}
          data-testid="menu-pip"
        >
          <Icon name="pip" className="h-5 w-5" />
          <span className="flex-1">{t('player.controls.pip')}</span>
        </button>
      )}
      {menu.includes('airplay') && (
        <button
          type="button"
          className={ROW}
          onClick={() => requests.startAirplay()}
          data-testid="menu-airplay"
        >
          <Icon name="airplay" className="h-5 w-5" />
          <span className="flex-1">{t('player.controls.airplay')}</span>
        </button>
      )}
      {menu.includes('cast') && (
        <div className="flex items-center px-1">
          <CastLauncher />
        </div>
      )}
    </div>
  );
}

/**
 * `/settings`: the controls that did not fit the bar, quality, source, subtitles, playback speed and the
 * shortcuts.
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
  const rate = usePlayer((s) => s.playback.playbackRate);
  const sourceName = useSourceName(sourceId);
  return (
    <MenuCard
      title={t('player.settings.title')}
      testId="settings-menu"
      back={t('player.menu.close')}
      onBack={onClose}
    >
      <MovedControls isShow={isShow} open={open} />
      <p className="px-3 pt-1 text-xs font-semibold uppercase tracking-wide text-white/50">
        {t('player.settings.video')}
      </p>
      <MenuLink
        open={open}
        to="/settings/quality"
        label={t('player.settings.quality')}
        value={
          quality ? `${automatic ? `${t('player.quality.auto')} · ` : ''}${qualityLabel(quality, t)}` : null
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
      <p className="px-3 pt-3 text-xs font-semibold uppercase tracking-wide text-white/50">
        {t('player.settings.experience')}
      </p>
      <label className={ROW}>
        <span className="flex-1">{t('player.settings.enableSubtitles')}</span>
        <input
          type="checkbox"
          checked={caption !== null}
          onChange={() => void toggleCaptions()}
          className="h-5 w-5 accent-accent"
          data-testid="toggle-subtitles"
        />
      </label>
      <MenuLink
        open={open}
        to="/settings/captions"
        label={t('player.settings.subtitles')}
        value={caption ? languageName(caption.language) : t('player.captions.off')}
        testId="menu-captions"
      />
      <MenuLink
        open={open}
        to="/settings/playback"
        label={t('player.settings.playback')}
        value={t('player.speed.value', { rate })}
        testId="menu-playback"
      />
      <MenuLink open={open} to="/shortcuts" label={t('player.shortcuts.title')} testId="menu-shortcuts" />
    </MenuCard>
  );
}
