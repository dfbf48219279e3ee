import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { playerStore, usePlayer } from '../../core/player-store.ts';
import type { AudioTrackItem } from '../../core/types.ts';
import { MenuCard, MenuList, MenuRadio, useLanguageName } from './menu-parts.tsx';

/** Channels as players name them: mono, stereo, 5.1, 7.1; other layouts are not named. */
export function channelsLabel(channels: number | null, t: TFunction<readonly ['player']>): string | null {
  switch (channels) {
    case 1:
      return t('player.audio.mono');
    case 2:
      return t('player.audio.stereo');
    case 6:
      return '5.1';
    case 8:
      return '7.1';
    default:
      return null;
  }
}

/** What a track row says under its language: the channels, the file's own name of it, and "Default". */
export function audioTrackDetails(track: AudioTrackItem, t: TFunction<readonly ['player']>): string[] {
  return [
    channelsLabel(track.channels, t),
    track.label,
    track.isDefault ? t('player.audio.default') : null,
  ].filter((x): x is string => !!x);
}

/**
 * `/settings/audio`: the audio tracks of a library title. Choosing one reloads the title with that track
 * from where the viewer is (the store's `chooseAudioTrack`) and closes the menus.
 */
export function AudioMenu({ back, close }: { back(): void; close(): void }) {
  const { t } = useTranslation(['player']);
  const languageName = useLanguageName();
  const tracks = usePlayer((s) => s.audioTracks);
  const active = usePlayer((s) => s.audioTrackId);
  return (
    <MenuCard
      title={t('player.settings.audio')}
      testId="audio-menu"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
    >
      <MenuList>
        {tracks.map((track) => {
          const details = audioTrackDetails(track, t);
          return (
            <MenuRadio
              key={track.id}
              checked={track.id === active}
              data-testid="audio-option"
              data-id={track.id}
              data-language={track.language}
              onClick={() => {
                playerStore.getState().chooseAudioTrack(track.id);
                close();
              }}
            >
              <span className="flex min-w-0 flex-1 flex-col">
                <span className="break-words">{languageName(track.language)}</span>
                {details.length > 0 && (
                  <>
                    {/* Screen readers hear "English 5.1 · Default", not "English5.1". */}{' '}
                    <span className="break-words text-xs text-white/60">{details.join(' · ')}</span>
                  </>
                )}
              </span>
            </MenuRadio>
          );
        })}
      </MenuList>
    </MenuCard>
  );
}
