import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { usePlayer } from '../../core/player-store.ts';
import type { PlayerMeta } from '../../core/types.ts';
import { useSourceSwitch, type SourceSwitchState } from '../../session/use-source-switch.ts';
import type { SourceChoice } from '../../scrape/switch-source.ts';
import { explainedKey } from '../error-details.tsx';
import { MenuCard, MenuItem, MenuList, MenuRadio, RowError, RowSpinner } from './menu-parts.tsx';

type Refusal = Extract<SourceChoice, { kind: 'noStream' | 'noEmbeds' | 'failed' }>['kind'];

const REFUSAL_KEYS = {
  noStream: 'player.scraping.noStream',
  noEmbeds: 'player.scraping.noEmbeds',
  failed: 'player.scraping.failed',
} as const satisfies Record<Refusal, string>;

const isRefusal = (kind: SourceChoice['kind']): kind is Refusal => kind in REFUSAL_KEYS;

function SourceRow({
  source,
  result,
  names,
  onChoose,
  onChooseEmbed,
}: {
  source: { id: string; name: string };
  result: NonNullable<SourceSwitchState>['result'] | null;
  names: Record<string, string>;
  onChoose(): void;
  onChooseEmbed(embedId: string, url: string): void;
}) {
  const { t } = useTranslation(['errors', 'global', 'player']);
  const checked = usePlayer((s) => s.sourceId === source.id);
  const errorId = useId();
  const done = result && result !== 'loading' ? result : null;
  const refusal = done && isRefusal(done.kind) ? done.kind : null;
  // The server's reason when it gave one (the library's file cannot play on this device).
  const explained = done?.kind === 'failed' ? explainedKey(done.code) : null;
  return (
    <>
      <MenuRadio
        checked={checked}
        onClick={onChoose}
        aria-describedby={refusal ? errorId : undefined}
        data-testid="source-option"
        data-id={source.id}
      >
        <span className="flex-1">{source.name}</span>
        {result === 'loading' && <RowSpinner label={t('global.loading')} />}
      </MenuRadio>
      {refusal && <RowError id={errorId} text={explained ? t(explained) : t(REFUSAL_KEYS[refusal])} />}
      {done?.kind === 'embeds' && (
        <div role="group" aria-label={source.name} className="ms-4">
          {done.embeds.map((e) => (
            <MenuItem
              key={`${e.embedId}-${e.url}`}
              data-testid="embed-option"
              data-id={e.embedId}
              onClick={() => onChooseEmbed(e.embedId, e.url)}
            >
              {names[e.embedId] ?? e.embedId}
            </MenuItem>
          ))}
        </div>
      )}
    </>
  );
}

/** `/settings/source`: this instance's sources, the playing one checked; one with several embeds offers them. */
export function SourceMenu({ back, close, meta }: { back(): void; close(): void; meta: PlayerMeta }) {
  const { t } = useTranslation(['player']);
  const { sources, names, state, chooseSource, chooseEmbed } = useSourceSwitch(meta, close);
  return (
    <MenuCard
      title={t('player.settings.source')}
      testId="source-menu"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
    >
      <MenuList>
        {sources.map((s) => (
          <SourceRow
            key={s.id}
            source={s}
            result={state?.id === s.id ? state.result : null}
            names={names}
            onChoose={() => chooseSource(s.id)}
            onChooseEmbed={(embedId, url) => chooseEmbed(s.id, embedId, url)}
          />
        ))}
      </MenuList>
    </MenuCard>
  );
}
