import { useTranslation } from 'react-i18next';
import { usePlayer } from '../../core/player-store.ts';
import type { PlayerMeta } from '../../core/types.ts';
import { useSourceSwitch } from '../../session/use-source-switch.ts';
import type { SourceChoice } from '../../scrape/switch-source.ts';
import { Icon } from '../icons.tsx';
import { MenuCard, ROW, RowSpinner } from './menu-parts.tsx';

type Refusal = Extract<SourceChoice, { kind: 'noStream' | 'noEmbeds' | 'failed' }>['kind'];

const REFUSAL_KEYS = {
  noStream: 'player.scraping.noStream',
  noEmbeds: 'player.scraping.noEmbeds',
  failed: 'player.scraping.failed',
} as const satisfies Record<Refusal, string>;

/** `/settings/source`: this instance's sources; one with several embeds offers them. */
export function SourceMenu({ back, close, meta }: { back(): void; close(): void; meta: PlayerMeta }) {
  const { t } = useTranslation(['player']);
  const current = usePlayer((s) => s.sourceId);
  const { sources, names, state, chooseSource, chooseEmbed } = useSourceSwitch(meta, close);
  return (
    <MenuCard
      title={t('player.settings.source')}
      testId="source-menu"
      back={t('player.menu.back')}
      onBack={back}
    >
      <ul>
        {sources.map((s) => {
          const result = state?.id === s.id ? state.result : null;
          return (
            <li key={s.id}>
              <button
                type="button"
                className={ROW}
                onClick={() => chooseSource(s.id)}
                data-testid="source-option"
                data-id={s.id}
              >
                <span className="flex-1">{s.name}</span>
                {result === 'loading' && <RowSpinner />}
                {current === s.id && <Icon name="check" className="h-4 w-4" />}
              </button>
              {result && result !== 'loading' && result.kind in REFUSAL_KEYS && (
                <p className="px-3 pb-2 text-xs text-red-400" role="alert">
                  {t(REFUSAL_KEYS[result.kind as Refusal])}
                </p>
              )}
              {result && result !== 'loading' && result.kind === 'embeds' && (
                <ul className="ms-4">
                  {result.embeds.map((e) => (
                    <li key={`${e.embedId}-${e.url}`}>
                      <button
                        type="button"
                        className={ROW}
                        data-testid="embed-option"
                        data-id={e.embedId}
                        onClick={() => chooseEmbed(s.id, e.embedId, e.url)}
                      >
                        {names[e.embedId] ?? e.embedId}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </MenuCard>
  );
}
