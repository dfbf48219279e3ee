import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/button.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { paths } from '../../lib/paths.ts';
import { householdProfileName, useAccountStore } from '../../stores/index.ts';

/**
 * A page of the account's grown-ups opened from a kids' profile (decision 106): what it is and the ways
 * on — "who's watching" (another profile asks its PIN when it has one) and home.
 */
export function KidsClosedNotice() {
  const { t } = useTranslation(['customer']);
  const name = useAccountStore((s) => householdProfileName(s.account));
  usePageTitle(t('customer.profiles.kids.closedTitle'));
  return (
    <div
      className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-12 text-center"
      data-testid="kids-closed"
    >
      <h1 className="text-2xl font-bold text-fg">{t('customer.profiles.kids.closedTitle')}</h1>
      <p className="text-fg-muted">{t('customer.profiles.kids.closedDescription', { name })}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <ButtonLink to={paths.home}>{t('customer.profiles.kids.home')}</ButtonLink>
        <ButtonLink to={paths.profiles} variant="secondary">
          {t('customer.profiles.pin.switchProfile')}
        </ButtonLink>
      </div>
    </div>
  );
}
