import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentLimit, ContentRatingRegion } from '@marquee/contract';
import { CONTENT_RATING_REGIONS, limitSteps } from '@marquee/contract/values';
import { displayNames, listFormat } from '../../lib/intl.ts';
import { viewerRegion } from '../../lib/region.ts';

/** The age a new limit starts at: the highest step for ten-year-olds or younger in the region. */
const DEFAULT_AGE = 10;

/** A new kids' profile's limit: the viewer's region (when it has ratings here, else the US's), up to 10. */
export function defaultLimit(region: string = viewerRegion()): ContentLimit {
  const known = (CONTENT_RATING_REGIONS as readonly string[]).includes(region);
  const chosen = (known ? region : 'US') as ContentRatingRegion;
  const steps = limitSteps(chosen).filter((s) => s.maxAge <= DEFAULT_AGE);
  return { region: chosen, maxAge: steps.at(-1)?.maxAge ?? 0, showUnrated: false };
}

/** The step of `region` a limit of `maxAge` falls on (a limit made in another region keeps its age). */
function stepOf(region: ContentRatingRegion, maxAge: number): number {
  const steps = limitSteps(region);
  const within = steps.filter((s) => s.maxAge <= maxAge);
  return (within.at(-1) ?? steps[0]!).maxAge;
}

/**
 * A household profile's kids' limit (decision 106): off, or the region whose ratings count, the highest
 * rating allowed (each step names its film and TV ratings) and whether unrated titles show. Native
 * controls: a checkbox, a select and radio buttons, so touch, keyboard, remote and screen readers work.
 */
export function KidsLimitFields({
  value,
  onChange,
  ownerHasPin,
}: {
  value: ContentLimit | null;
  onChange: (limit: ContentLimit | null) => void;
  /** The account's own profile has a PIN: without one, a kid can leave for it. */
  ownerHasPin: boolean;
}) {
  const { t, i18n } = useTranslation(['customer']);
  const id = useId();
  const regionNames = displayNames([i18n.language, 'en'], { type: 'region' });
  const list = listFormat(i18n.language, { type: 'conjunction', style: 'narrow' });
  const regions = [...CONTENT_RATING_REGIONS].sort((a, b) =>
    (regionNames.of(a) ?? a).localeCompare(regionNames.of(b) ?? b, i18n.language),
  );
  const steps = value ? limitSteps(value.region) : [];
  const current = value ? stepOf(value.region, value.maxAge) : null;
  return (
    <fieldset className="flex flex-col gap-4 rounded-xl border border-white/10 p-4" data-testid="kids-limit">
      <legend className="px-1 text-lg font-bold text-fg">{t('customer.profiles.kids.legend')}</legend>
      <label className="flex min-h-11 items-center gap-3 text-fg">
        <input
          type="checkbox"
          className="h-5 w-5 accent-accent"
          checked={value !== null}
          onChange={(e) => onChange(e.target.checked ? defaultLimit() : null)}
        />
        {t('customer.profiles.kids.toggle')}
      </label>
      <p className="text-sm text-fg-muted">{t('customer.profiles.kids.explain')}</p>
      {value && (
        <>
          <label className="flex flex-col gap-1 text-sm font-semibold text-fg" htmlFor={`${id}-region`}>
            {t('customer.profiles.kids.region')}
            <select
              id={`${id}-region`}
              className="min-h-11 rounded-lg bg-surface-3 px-3 text-base font-normal text-fg"
              value={value.region}
              onChange={(e) => {
                const region = e.target.value as ContentRatingRegion;
                onChange({ ...value, region, maxAge: stepOf(region, value.maxAge) });
              }}
            >
              {regions.map((region) => (
                <option key={region} value={region}>
                  {regionNames.of(region) ?? region}
                </option>
              ))}
            </select>
          </label>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-semibold text-fg">
              {t('customer.profiles.kids.maxRating')}
            </legend>
            {steps.map((step) => (
              <label
                key={step.maxAge}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 py-1 hover:bg-surface-3"
              >
                <input
                  type="radio"
                  name={`${id}-age`}
                  className="h-5 w-5 accent-accent"
                  checked={current === step.maxAge}
                  onChange={() => onChange({ ...value, maxAge: step.maxAge })}
                />
                <span className="flex flex-col">
                  {/* Rating names are the boards' own: left to right in every language. */}
                  <bdi className="font-semibold text-fg" dir="ltr">
                    {step.movie.join(' / ')}
                  </bdi>
                  <span className="text-xs text-fg-muted">
                    {t('customer.profiles.kids.films', { ratings: list.format(step.movie) })}
                    {step.tv.length > 0 && (
                      <> · {t('customer.profiles.kids.tv', { ratings: list.format(step.tv) })}</>
                    )}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <label className="flex min-h-11 items-center gap-3 text-fg">
            <input
              type="checkbox"
              className="h-5 w-5 accent-accent"
              checked={value.showUnrated}
              onChange={(e) => onChange({ ...value, showUnrated: e.target.checked })}
            />
            {t('customer.profiles.kids.unrated')}
          </label>
          {!ownerHasPin && (
            <p className="text-sm text-fg-accent" data-testid="kids-owner-pin-hint">
              {t('customer.profiles.kids.noOwnerPin')}
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}
