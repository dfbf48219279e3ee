import { sortQualities, type StreamQuality } from '../../core/quality.ts';
import { useTranslation } from 'react-i18next';
import { usePlayerPrefsStore } from '../../../../stores/index.ts';
import { requests, usePlayer } from '../../core/player-store.ts';
import { MenuCard, MenuCheckbox, MenuList, MenuRadio, qualityLabel } from './menu-parts.tsx';

/**
 * `/settings/quality`: the usual qualities (those this source lacks disabled) and "automatic". A quality
 * is checked when the viewer chose it; the mark shows the one playing, chosen or automatic.
 */
export function QualityMenu({ back, close }: { back(): void; close(): void }) {
  const { t } = useTranslation(['player']);
  const qualities = usePlayer((s) => s.qualities);
  const current = usePlayer((s) => s.currentQuality);
  const automatic = usePlayerPrefsStore((s) => s.automaticQuality);
  const setPrefs = usePlayerPrefsStore((s) => s.setPlayerPrefs);
  const listed = sortQualities([
    '1080',
    '720',
    '480',
    '360',
    ...(qualities.includes('4k') ? (['4k'] as const) : []),
    ...(qualities.includes('unknown') ? (['unknown'] as const) : []),
  ]);
  return (
    <MenuCard
      title={t('player.settings.quality')}
      testId="quality-menu"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
    >
      <MenuList>
        {listed.map((q) => (
          <MenuRadio
            key={q}
            checked={!automatic && current === q}
            marked={current === q}
            disabled={!qualities.includes(q)}
            data-testid={`quality-${q}`}
            onClick={() => {
              setPrefs({ automaticQuality: false, lastChosenQuality: q });
              requests.setQuality(q);
              close();
            }}
          >
            <span className="flex-1">{qualityLabel(q, t)}</span>
          </MenuRadio>
        ))}
        <div className="mt-2 border-t border-white/10">
          <MenuCheckbox
            checked={automatic}
            data-testid="quality-automatic"
            onClick={() => {
              setPrefs({ automaticQuality: !automatic });
              requests.setQuality(
                !automatic
                  ? null
                  : ((usePlayerPrefsStore.getState().lastChosenQuality as StreamQuality | null) ?? current),
              );
            }}
          >
            {t('player.quality.automatic')}
          </MenuCheckbox>
        </div>
      </MenuList>
      <p className="px-3 py-2 text-xs text-white/60">{t('player.quality.hint')}</p>
    </MenuCard>
  );
}
