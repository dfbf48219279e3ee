import { useTranslation } from 'react-i18next';
import { changeSyncedSettings } from '../../../../lib/sync/session.ts';
import {
  clampStyling,
  SUBTITLE_COLORS,
  useSubtitlesStore,
  type SubtitleStyling,
} from '../../../../stores/index.ts';
import { CAPTION_DELAY_RANGE, clampDelaySetting } from '../../captions/caption-style.ts';
import { MenuCard, ROW } from './menu-parts.tsx';
import { numberFormat } from '../../../../lib/intl.ts';

function Slider({
  label,
  value,
  min,
  max,
  step,
  unit,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  unit: string;
  onChange(v: number): void;
  testId: string;
}) {
  return (
    <div className="block px-3 py-2 text-sm">
      <span className="flex justify-between">
        <span>{label}</span>
        <span className="tabular-nums text-white/70" data-testid={`${testId}-value`}>
          {value}
          {unit}
        </span>
      </span>
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="mt-1 w-full accent-accent"
        data-testid={testId}
        aria-label={label}
      />
    </div>
  );
}

function CheckboxRow({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
  testId: string;
}) {
  return (
    <label className={ROW}>
      <span className="flex-1">{label}</span>
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 accent-accent"
        data-testid={testId}
      />
    </label>
  );
}

/** The captions' delay: a slider between buttons that move it by a tenth of a second. */
function DelayControl() {
  const { t, i18n } = useTranslation(['player']);
  const delay = clampDelaySetting(useSubtitlesStore((s) => s.delay));
  const setDelay = useSubtitlesStore((s) => s.setDelay);
  return (
    <div className="px-3 py-2 text-sm">
      <span className="flex justify-between">
        <span>{t('player.captions.delay')}</span>
        <span className="tabular-nums text-white/70" data-testid="caption-delay-value">
          {t('player.captions.seconds', {
            value: numberFormat(i18n.language, {
              minimumFractionDigits: 1,
              maximumFractionDigits: 1,
            }).format(delay),
          })}
        </span>
      </span>
      <div className="mt-1 flex items-center gap-2">
        <button
          type="button"
          className="rounded bg-white/10 px-2"
          onClick={() => setDelay(clampDelaySetting(delay - 0.1))}
          aria-label={t('player.captions.delayEarlier')}
          data-testid="caption-delay-down"
        >
          ◀
        </button>
        <input
          type="range"
          min={CAPTION_DELAY_RANGE.min}
          max={CAPTION_DELAY_RANGE.max}
          step={CAPTION_DELAY_RANGE.step}
          value={delay}
          onChange={(e) => setDelay(clampDelaySetting(Number(e.target.value)))}
          className="flex-1 accent-accent"
          aria-label={t('player.captions.delay')}
          data-testid="caption-delay"
        />
        <button
          type="button"
          className="rounded bg-white/10 px-2"
          onClick={() => setDelay(clampDelaySetting(delay + 0.1))}
          aria-label={t('player.captions.delayLater')}
          data-testid="caption-delay-up"
        >
          ▶
        </button>
      </div>
    </div>
  );
}

function ColorPicker({ value, onPick }: { value: string; onPick(color: string): void }) {
  const { t } = useTranslation(['player']);
  return (
    <div className="px-3 py-2 text-sm">
      <p>{t('player.captions.color')}</p>
      <div className="mt-2 flex gap-3">
        {SUBTITLE_COLORS.map((color) => (
          <button
            key={color}
            type="button"
            className={`h-8 w-8 rounded-full border-2 ${value === color ? 'border-accent' : 'border-transparent'}`}
            style={{ backgroundColor: color }}
            aria-label={t('player.captions.colorName', { color })}
            aria-pressed={value === color}
            data-testid={`caption-color-${color.slice(1)}`}
            onClick={() => onPick(color)}
          />
        ))}
      </div>
    </div>
  );
}

/** The captions' look, and how to change it. */
function useCaptionStyling() {
  const styling = useSubtitlesStore((s) => s.styling);
  // A synced setting (decision 040): changed here as in Settings, it follows the viewer to their other devices.
  const style = (patch: Partial<SubtitleStyling>) =>
    changeSyncedSettings({ subtitleStyling: clampStyling(patch, styling) });
  return { styling, style };
}

/**
 * `/settings/captions/settings`: delay, casing fix and the captions' look. Controls, not choices: a
 * panel, walked with the arrow keys all the same (the sliders keep the sideways ones).
 */
export function CaptionSettingsMenu({ back }: { back(): void }) {
  const { t } = useTranslation(['player']);
  const overrideCasing = useSubtitlesStore((s) => s.overrideCasing);
  const setSubtitles = useSubtitlesStore((s) => s.setSubtitles);
  const { styling, style } = useCaptionStyling();
  return (
    <MenuCard
      title={t('player.captions.settings')}
      testId="caption-settings"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
      panel
    >
      <DelayControl />
      <CheckboxRow
        label={t('player.captions.fixCapitalisation')}
        checked={overrideCasing}
        onChange={(checked) => setSubtitles({ overrideCasing: checked })}
        testId="caption-fix-casing"
      />
      <CheckboxRow
        label={t('player.captions.bold')}
        checked={styling.bold}
        onChange={(bold) => style({ bold })}
        testId="caption-bold"
      />
      <Slider
        label={t('player.captions.backgroundOpacity')}
        value={Math.round(styling.backgroundOpacity * 100)}
        min={0}
        max={100}
        step={1}
        unit="%"
        onChange={(v) => style({ backgroundOpacity: v / 100 })}
        testId="caption-opacity"
      />
      <Slider
        label={t('player.captions.backgroundBlur')}
        value={Math.round(styling.backgroundBlur * 100)}
        min={0}
        max={100}
        step={1}
        unit="%"
        onChange={(v) => style({ backgroundBlur: v / 100 })}
        testId="caption-blur"
      />
      <Slider
        label={t('player.captions.textSize')}
        value={Math.round(styling.size * 100)}
        min={1}
        max={200}
        step={1}
        unit="%"
        onChange={(v) => style({ size: v / 100 })}
        testId="caption-size"
      />
      <ColorPicker value={styling.color} onPick={(color) => style({ color })} />
    </MenuCard>
  );
}
