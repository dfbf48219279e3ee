import { useTranslation } from 'react-i18next';
import { longDateTime, type membershipState } from '../../lib/membership-status.ts';
import { CHOICE_HEADING } from './purchase-parts.tsx';

type Membership = ReturnType<typeof membershipState>;

function MembershipStatus({ state, end }: Membership) {
  const { t, i18n } = useTranslation(['membership']);
  const date = end ? longDateTime(end, i18n.language) : '';
  return (
    <p
      className={`rounded-xl px-4 py-3 text-sm font-semibold ${state === 'active' ? 'bg-green-900/40 text-green-200' : 'bg-surface-2 text-fg'}`}
      data-testid="membership-status"
    >
      {state === 'active'
        ? t('membership.status.activeUntil', { date })
        : state === 'ended'
          ? t('membership.status.endedOn', { date })
          : t('membership.status.none')}
    </p>
  );
}

/** The choice step's heading (focused when Back returns to it), the intro and the membership's state. */
export function PurchaseHeader({ title, membership }: { title: string; membership: Membership }) {
  const { t } = useTranslation(['membership']);
  return (
    <div className="flex flex-col gap-3">
      <h1 id={CHOICE_HEADING} tabIndex={-1} className="text-3xl font-bold text-fg focus:outline-none">
        {title}
      </h1>
      <p className="text-fg-muted">{t('membership.intro')}</p>
      <MembershipStatus {...membership} />
    </div>
  );
}
