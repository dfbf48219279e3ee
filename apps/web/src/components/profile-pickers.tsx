import { useTranslation } from 'react-i18next';
import { ProfileIcon } from './avatar.tsx';
import { PROFILE_COLORS, PROFILE_ICONS } from '../stores/index.ts';

export function ColorSwatches({
  label,
  value,
  onChange,
  name,
}: {
  label: string;
  value: string;
  onChange: (c: string) => void;
  name: string;
}) {
  const { t } = useTranslation(['auth']);
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-fg">{label}</legend>
      <div className="flex gap-2">
        {PROFILE_COLORS.map((color) => (
          <label key={color} className="cursor-pointer">
            <input
              type="radio"
              name={name}
              value={color}
              checked={value.toLowerCase() === color.toLowerCase()}
              onChange={() => onChange(color)}
              className="peer sr-only"
            />
            <span
              className="block h-9 w-9 rounded-full ring-offset-2 ring-offset-surface-1 peer-checked:ring-2 peer-checked:ring-fg peer-focus-visible:ring-2 peer-focus-visible:ring-accent"
              style={{ backgroundColor: color }}
            />
            <span className="sr-only">{t('auth.profile.colorName', { color })}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function IconChoices({
  value,
  onChange,
  name = 'profile-icon',
}: {
  value: string;
  onChange: (icon: string) => void;
  name?: string;
}) {
  const { t } = useTranslation(['auth']);
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-semibold text-fg">{t('auth.profile.icon')}</legend>
      <div className="flex flex-wrap gap-2">
        {PROFILE_ICONS.map((icon) => (
          <label key={icon} className="cursor-pointer">
            <input
              type="radio"
              name={name}
              value={icon}
              checked={value === icon}
              onChange={() => onChange(icon)}
              className="peer sr-only"
            />
            <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-surface-2 text-fg peer-checked:bg-accent peer-checked:text-white peer-focus-visible:ring-2 peer-focus-visible:ring-accent">
              <ProfileIcon icon={icon} className="h-6 w-6" />
            </span>
            <span className="sr-only">{t(`auth.profile.icons.${icon}`)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
