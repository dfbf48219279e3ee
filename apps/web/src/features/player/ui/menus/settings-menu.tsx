import { useTranslation } from 'react-i18next';
import { usePlayerPrefsStore } from '../../../../stores/index.ts';
import { toggleCaptions } from '../../captions/caption-actions.ts';
import { usePlayer } from '../../core/player-store.ts';
import { useSourceName } from '../../session/use-source-switch.ts';
import { MenuCard, MenuLink, qualityLabel, ROW, useLanguageName, type OpenMenu } from './menu-parts.tsx';

/** `/settings`: quality, source, subtitles, playback speed and the shortcuts. */
export function SettingsMenu({ open, onClose }: { open: OpenMenu; onClose(): void }) {
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
          className="h-4 w-4 accent-accent"
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
