import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { instanceProviders, type InstanceProvider } from '../../lib/instance-providers.ts';
import { Toggle } from './settings-ui.tsx';

/**
 * The viewer's order of this instance's sources: the saved order first (ids the instance no longer has
 * are dropped), then the instance's remaining sources by rank.
 */
export function orderSources(
  sources: readonly InstanceProvider[],
  saved: readonly string[],
): InstanceProvider[] {
  const byId = new Map(sources.filter((s) => s.type === 'source').map((s) => [s.id, s]));
  const first = saved.map((id) => byId.get(id)).filter((s): s is InstanceProvider => s !== undefined);
  const rest = [...byId.values()].filter((s) => !saved.includes(s.id)).sort((a, b) => b.rank - a.rank);
  return [...first, ...rest];
}

/** Moves the item at `index` one place up (-1) or down (+1). */
export function move<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= items.length) return [...items];
  const out = [...items];
  [out[index], out[target]] = [out[target] as T, out[index] as T];
  return out;
}

const ARROW = 'rounded-md px-2 py-1 text-fg-muted hover:bg-surface-3 hover:text-fg disabled:opacity-30';

export function SourceOrderSetting({
  enabled,
  order,
  onChange,
}: {
  enabled: boolean;
  order: string[];
  onChange: (patch: { enableSourceOrder?: boolean; sourceOrder?: string[] }) => void;
}) {
  const { t } = useTranslation(['settings']);
  const [sources, setSources] = useState<InstanceProvider[] | null>(null);
  useEffect(() => {
    let live = true;
    void instanceProviders().then((list) => live && setSources(list));
    return () => {
      live = false;
    };
  }, []);
  const ordered = orderSources(sources ?? [], order);
  const reorder = (index: number, by: -1 | 1) =>
    onChange({ sourceOrder: move(ordered, index, by).map((s) => s.id) });

  return (
    <div className="rounded-lg bg-surface-2 p-4" data-testid="source-order">
      <Toggle
        id="settings-source-order"
        label={t('settings.preferences.sourceOrder')}
        description={t('settings.preferences.sourceOrderText')}
        checked={enabled}
        onChange={(v) => onChange({ enableSourceOrder: v, sourceOrder: ordered.map((s) => s.id) })}
      />
      {enabled && (
        <ol className="mt-3 flex flex-col gap-2">
          {ordered.map((source, index) => (
            <li
              key={source.id}
              className="flex items-center gap-3 rounded-md bg-surface-1 px-3 py-2 text-fg"
              data-testid="source-order-item"
            >
              <span className="w-6 text-sm text-fg-muted">{index + 1}</span>
              <span className="flex-1">{source.name}</span>
              <button
                type="button"
                className={ARROW}
                disabled={index === 0}
                onClick={() => reorder(index, -1)}
                aria-label={t('settings.preferences.moveUp', { name: source.name })}
              >
                ↑
              </button>
              <button
                type="button"
                className={ARROW}
                disabled={index === ordered.length - 1}
                onClick={() => reorder(index, 1)}
                aria-label={t('settings.preferences.moveDown', { name: source.name })}
              >
                ↓
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
