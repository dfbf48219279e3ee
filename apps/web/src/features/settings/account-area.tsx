import type { Account } from '../../stores/index.ts';
import { AccountSection } from './account-section.tsx';
import { EmailAccountSection, MembershipSection, SecuritySection } from './email-sections.tsx';
import type { SettingsValues } from './save-settings.ts';
import type { SectionId } from './settings-nav.tsx';
import type { EditSettings } from './use-settings-draft.ts';

/**
 * The account's sections: an email account's account, membership and security (each when shown), or a
 * passphrase account's (or no account's) account section, with the membership of a signed-in account.
 * Memberships show only where the instance takes payments.
 */
export function AccountArea({
  account,
  draft,
  edit,
  on,
  oneAtATime,
  deviceError,
  paymentGateway,
}: {
  account: Account | null;
  draft: Pick<SettingsValues, 'account' | 'email'>;
  edit: EditSettings;
  /** Which sections show. */
  on: Record<SectionId, boolean>;
  oneAtATime: boolean;
  /** The device name is refused (too long or empty). */
  deviceError: boolean;
  paymentGateway: boolean;
}) {
  if (oneAtATime && account && draft.email)
    return (
      <>
        {on.account && (
          <EmailAccountSection
            account={account}
            draft={draft.email}
            setDraft={(email) => edit({ email })}
            deviceError={deviceError}
          />
        )}
        {on.membership && paymentGateway && <MembershipSection />}
        {on.security && <SecuritySection />}
      </>
    );
  return (
    <>
      <AccountSection draft={draft.account} setDraft={(a) => edit({ account: a })} />
      {/* Either kind of account can hold a membership. */}
      {account && paymentGateway && <MembershipSection />}
    </>
  );
}
