import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { APP_VERSION } from '@marquee/contract/values';
import { accountBaseUrl } from '../../lib/api/index.ts';

const SECTIONS = ['account', 'preferences', 'appearance', 'captions', 'connections'] as const;
/** Email accounts: account, membership and security first; the sidebar shows one section at a time. */
const EMAIL_SECTIONS = [
  'account',
  'membership',
  'security',
  'preferences',
  'appearance',
  'captions',
  'connections',
] as const;
export type SectionId = (typeof EMAIL_SECTIONS)[number];
/** A kids' profile's: its own preferences, nothing of the account (decision 106). */
const KIDS_SECTIONS = ['preferences', 'appearance', 'captions'] as const satisfies readonly SectionId[];

/**
 * Which sections the page has and which show. Email accounts (`oneAtATime`) see one section at a time:
 * the chosen one, else the URL's `#section`, else the account; others see every section, one below the
 * other. Memberships exist only where the instance takes payments (the variant decides what is offered).
 */
export function useSettingsSections(oneAtATime: boolean, paymentGateway: boolean, kids = false) {
  const sections: readonly SectionId[] = kids
    ? KIDS_SECTIONS
    : oneAtATime
      ? EMAIL_SECTIONS.filter((id) => id !== 'membership' || paymentGateway)
      : SECTIONS;
  const { hash } = useLocation();
  const hashSection = hash.slice(1) as SectionId;
  const [chosen, setChosen] = useState<SectionId | null>(null);
  const active: SectionId = chosen ?? (sections.includes(hashSection) ? hashSection : sections[0]!);
  const on = Object.fromEntries(EMAIL_SECTIONS.map((id) => [id, !oneAtATime || active === id])) as Record<
    SectionId,
    boolean
  >;
  return { sections, active, on, choose: setChosen };
}

/** The settings page's heading, its sections' links and what this app is connected to. */
export function SettingsSidebar({
  sections,
  oneAtATime,
  active,
  onChoose,
  userId,
}: {
  sections: readonly SectionId[];
  /** The links show one section at a time (email accounts) instead of scrolling to it. */
  oneAtATime: boolean;
  active: SectionId;
  onChoose(id: SectionId): void;
  /** The signed-in account's user id. */
  userId: string | undefined;
}) {
  const { t } = useTranslation(['accountSettings', 'settings']);
  return (
    <aside className="lg:sticky lg:top-24 lg:w-56 lg:self-start">
      <h1 className="mb-4 text-3xl font-bold text-fg">{t('settings.title')}</h1>
      <nav aria-label={t('settings.title')} className="flex flex-wrap gap-2 lg:flex-col">
        {sections.map((id) => {
          const label =
            id === 'membership' || id === 'security'
              ? t(`accountSettings.sections.${id}`)
              : t(`settings.${id}.title`);
          return oneAtATime ? (
            <a
              key={id}
              href={`#${id}`}
              onClick={(e) => {
                e.preventDefault();
                onChoose(id);
                window.history.replaceState(window.history.state, '', `#${id}`);
              }}
              aria-current={active === id ? 'page' : undefined}
              className={`inline-flex min-h-11 items-center rounded-lg px-3 py-2 text-sm font-semibold hover:bg-surface-2 hover:text-fg ${active === id ? 'bg-surface-2 text-fg' : 'text-fg-muted'}`}
              data-testid={`settings-nav-${id}`}
            >
              {label}
            </a>
          ) : (
            <a
              key={id}
              href={`#${id}`}
              className="inline-flex min-h-11 items-center rounded-lg px-3 py-2 text-sm font-semibold text-fg-muted hover:bg-surface-2 hover:text-fg"
            >
              {label}
            </a>
          );
        })}
      </nav>
      <dl className="mt-6 hidden space-y-1 rounded-xl bg-surface-2 p-4 text-xs text-fg-muted lg:block">
        <dt className="font-semibold text-fg">{t('settings.info.server')}</dt>
        <dd className="break-all" dir="ltr">
          {accountBaseUrl() || window.location.origin}
        </dd>
        <dt className="font-semibold text-fg">{t('settings.info.user')}</dt>
        <dd className="break-all">{userId ?? t('settings.info.notLoggedIn')}</dd>
        <dt className="font-semibold text-fg">{t('settings.info.version')}</dt>
        <dd>{APP_VERSION}</dd>
      </dl>
    </aside>
  );
}
