import { sortQualities, type StreamQuality } from '../../core/quality.ts';
import { useTranslation } from 'react-i18next';
import { usePlayerPrefsStore } from '../../../../stores/index.ts';
import { requests, usePlayer } from '../../core/player-store.ts';
import { Icon } from '../icons.tsx';
import { MenuCard, qualityLabel, ROW } from './menu-parts.tsx';

/** `/settings/quality`: the usual qualities (those this source lacks disabled) and "automatic". */
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
      back={t('player.menu.back')}
      onBack={back}
    >
      {listed.map((q) => (
        <button
          key={q}
          type="button"
          className={ROW}
          disabled={!qualities.includes(q)}
          data-testid={`quality-${q}`}
          aria-current={!automatic && current === q ? 'true' : undefined}
          onClick={() => {
            setPrefs({ automaticQuality: false, lastChosenQuality: q });
            requests.setQuality(q);
            close();
          }}
        >
          <span className="flex-1">{qualityLabel(q, t)}</span>
          {current === q && <Icon name="check" className="h-4 w-4" />}
        </button>
      ))}
      <label className={`${ROW} mt-2 border-t border-white/10`}>
        <span className="flex-1">{t('player.quality.automatic')}</span>
        <input
          type="checkbox"
          checked={automatic}
          data-testid="quality-automatic"
          className="h-4 w-4 accent-accent"
          onChange={(e) => {
            setPrefs({ automaticQuality: e.target.checked });
            requests.setQuality(
              e.target.checked
                ? null
                : ((usePlayerPrefsStore.getState().lastChosenQuality as StreamQuality | null) ?? current),
            );
          }}
        />
      </label>
      <p className="px-3 py-2 text-xs text-white/60">{t('player.quality.hint')}</p>
    </MenuCard>
  );
}
