import { useTranslation } from 'react-i18next';
import { SUBTITLE_COLORS, clampStyling, type SubtitleStyling } from '../../stores/index.ts';
import { Section, Slider, Toggle } from './settings-ui.tsx';

function CaptionPreview({ styling }: { styling: SubtitleStyling }) {
  const { t } = useTranslation(['settings']);
  return (
    <div
      className="flex h-40 items-end justify-center rounded-xl bg-gradient-to-br from-indigo-900 via-slate-800 to-amber-800 p-6"
      aria-hidden="true"
    >
      <span
        className="rounded px-2 py-1 text-center"
        style={{
          color: styling.color,
          fontSize: `${1.5 * styling.size}em`,
          fontWeight: styling.bold ? 700 : 400,
          backgroundColor: `rgba(0,0,0,${styling.backgroundOpacity})`,
          backdropFilter: styling.backgroundBlur
            ? `blur(${Math.round(styling.backgroundBlur * 64)}px)`
            : undefined,
        }}
      >
        {t('settings.captions.sample')}
      </span>
    </div>
  );
}

const percent = (v: number) => `${Math.round(v * 100)}%`;

/** Captions: a preview and the styling's controls; each change is clamped to what the player allows. */
export function CaptionsSection({
  styling,
  onChange,
}: {
  styling: SubtitleStyling;
  onChange(styling: SubtitleStyling): void;
}) {
  const { t } = useTranslation(['auth', 'settings']);
  const setStyling = (patch: Partial<SubtitleStyling>) => onChange(clampStyling(patch, styling));
  return (
    <Section id="captions" title={t('settings.captions.title')}>
      <div className="flex flex-col gap-5">
        <CaptionPreview styling={styling} />
        <Slider
          id="caption-opacity"
          label={t('settings.captions.backgroundOpacity')}
          value={styling.backgroundOpacity}
          min={0}
          max={1}
          step={0.01}
          format={percent}
          onChange={(v) => setStyling({ backgroundOpacity: v })}
        />
        <Slider
          id="caption-blur"
          label={t('settings.captions.backgroundBlur')}
          value={styling.backgroundBlur}
          min={0}
          max={1}
          step={0.01}
          format={percent}
          onChange={(v) => setStyling({ backgroundBlur: v })}
        />
        <Slider
          id="caption-size"
          label={t('settings.captions.size')}
          value={Math.min(2, styling.size)}
          min={0.01}
          max={2}
          step={0.01}
          format={percent}
          onChange={(v) => setStyling({ size: v })}
        />
        <Toggle
          id="caption-bold"
          label={t('settings.captions.bold')}
          checked={styling.bold}
          onChange={(v) => setStyling({ bold: v })}
        />
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-fg">{t('settings.captions.color')}</legend>
          <div className="flex gap-2">
            {SUBTITLE_COLORS.map((color) => (
              <label key={color} className="flex h-11 w-11 cursor-pointer items-center justify-center">
                <input
                  type="radio"
                  name="caption-color"
                  checked={styling.color === color}
                  onChange={() => setStyling({ color })}
                  className="peer sr-only"
                />
                <span
                  className="block h-9 w-9 rounded-full ring-offset-2 ring-offset-bg peer-checked:ring-2 peer-checked:ring-accent peer-focus-visible:ring-2"
                  style={{ backgroundColor: color }}
                />
                <span className="sr-only">{t('auth.profile.colorName', { color })}</span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>
    </Section>
  );
}
