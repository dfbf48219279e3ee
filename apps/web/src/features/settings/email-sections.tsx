import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Avatar } from '../../components/avatar.tsx';
import { Button, ButtonLink } from '../../components/button.tsx';
import { FIELD_INPUT, FormField } from '../../components/form-field.tsx';
import { IconChoices } from '../../components/profile-pickers.tsx';
import { changePassword } from '../../lib/account/customer-api.ts';
import {
  CUSTOMER_ERROR_ORDER,
  passwordChangeResolver,
  type PasswordChangeValues,
} from '../../lib/account/customer-forms.ts';
import { firstErrorKey } from '../../lib/account/form-resolver.ts';
import { errorKey } from '../../lib/api/index.ts';
import { clock } from '../../lib/clock.ts';
import { longDateTime, membershipState } from '../../lib/membership-status.ts';
import { logout } from '../../lib/sync/session.ts';
import { useAccountStore, type Account } from '../../stores/index.ts';
import { DeleteAccount, DeviceList } from './account-section.tsx';
import { PasskeysBlock } from './passkeys-block.tsx';
import type { EmailAccountDraft } from './save-settings.ts';
import { Section } from './settings-ui.tsx';

export const emailDraftOf = (account: Account): EmailAccountDraft => ({
  fullname: account.user?.fullname ?? '',
  icon: account.user?.icon ?? account.profile.icon,
  deviceName: account.deviceName,
});

/** Account (email accounts): name, icon, this device's name, the devices, passkeys, household profiles. */
export function EmailAccountSection({
  account,
  draft,
  setDraft,
  deviceError,
}: {
  account: Account;
  draft: EmailAccountDraft;
  setDraft: (d: EmailAccountDraft) => void;
  deviceError: boolean;
}) {
  const { t } = useTranslation(['account', 'accountSettings', 'auth', 'settings']);
  const navigate = useNavigate();
  const user = account.user;
  const watching = account.profileId ? user?.profiles.find((p) => p._id === account.profileId) : undefined;
  return (
    <Section id="account" title={t('accountSettings.sections.account')}>
      <div className="flex flex-col gap-6">
        <div className="flex items-center gap-4">
          <Avatar {...account.profile} icon={draft.icon} size={64} />
          <div className="min-w-0">
            <p className="truncate text-lg font-semibold text-fg">{draft.fullname}</p>
            <p className="truncate text-sm text-fg-muted" data-testid="settings-email">
              {user?.email}
            </p>
          </div>
        </div>
        <FormField
          id="settings-fullname"
          label={t('accountSettings.account.fullname')}
          value={draft.fullname}
          onChange={(e) => setDraft({ ...draft, fullname: e.target.value })}
          autoComplete="name"
        />
        <IconChoices
          value={draft.icon}
          onChange={(icon) => setDraft({ ...draft, icon })}
          name="settings-icon"
        />
        <div>
          <label htmlFor="settings-device" className="mb-1 block text-sm font-semibold text-fg">
            {t('auth.deviceName')}
          </label>
          <input
            id="settings-device"
            value={draft.deviceName}
            onChange={(e) => setDraft({ ...draft, deviceName: e.target.value })}
            className={FIELD_INPUT}
            aria-invalid={deviceError}
          />
          {deviceError && (
            <p className="mt-1 text-sm text-red-300" role="alert">
              {t('accountSettings.deviceLengthError')}
            </p>
          )}
        </div>
        <div>
          <h3 className="mb-2 text-sm font-semibold text-fg">{t('settings.account.devices.title')}</h3>
          <DeviceList account={account} />
        </div>
        <PasskeysBlock account={account} />
        <div className="rounded-xl bg-surface-1 p-4">
          <h3 className="font-semibold text-fg">{t('accountSettings.account.profiles')}</h3>
          <p className="mt-1 text-sm text-fg-muted">{t('accountSettings.account.profilesText')}</p>
          <p className="mt-2 text-sm text-fg">
            {t('accountSettings.account.watchingAs', { name: watching?.fullname ?? user?.fullname ?? '' })}
          </p>
          <ButtonLink to="/profiles" variant="secondary" className="mt-3">
            {t('accountSettings.account.manageProfiles')}
          </ButtonLink>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => void logout().then(() => navigate('/'))}>
            {t('account.menu.logout')}
          </Button>
          <DeleteAccount account={account} />
        </div>
      </div>
    </Section>
  );
}

/** Membership: when it ends (a long date-time) or 'No membership active', and the way to start or extend one. */
export function MembershipSection() {
  const { t, i18n } = useTranslation(['accountSettings', 'membership']);
  const user = useAccountStore((s) => s.account?.user);
  const { state, end } = membershipState(user, clock.now());
  const date = end ? longDateTime(end, i18n.language) : '';
  return (
    <Section id="membership" title={t('accountSettings.sections.membership')}>
      <div className="flex flex-col gap-4 rounded-xl bg-surface-1 p-5">
        <p className="text-sm font-semibold text-fg-muted">{t('accountSettings.membership.status')}</p>
        <p className="text-lg font-semibold text-fg" data-testid="membership-status">
          {state === 'active'
            ? t('membership.status.activeUntil', { date })
            : state === 'ended'
              ? t('membership.status.endedOn', { date })
              : t('membership.status.none')}
        </p>
        <p className="text-sm text-fg-muted">{t('accountSettings.membership.note')}</p>
        <div>
          <ButtonLink to="/subscription">
            {state === 'active'
              ? t('accountSettings.membership.extend')
              : t('accountSettings.membership.start')}
          </ButtonLink>
        </div>
      </div>
    </Section>
  );
}

/** Security: a new password, typed twice ('Password didn't match'); the server's message on refusal. */
/** The password form's field names (not text the user reads). */
const FIELDS = { password: 'password', confirm: 'confirm' } as const;

export function SecuritySection() {
  const { t } = useTranslation(['accountSettings', 'customer', 'errors']);
  const form = useForm<PasswordChangeValues>({
    resolver: passwordChangeResolver,
    defaultValues: { password: '', confirm: '' },
    shouldFocusError: true,
  });
  const change = useMutation({
    mutationFn: (values: PasswordChangeValues) => changePassword(values),
    onSuccess: () => form.reset({ password: '', confirm: '' }),
  });
  // One message at a time, the form's own checks first (their order), then the server's answer by code.
  const problem = firstErrorKey(form.formState.errors, CUSTOMER_ERROR_ORDER);
  const error = problem ? t(problem) : change.isError ? t(errorKey(change.error)) : null;
  return (
    <Section id="security" title={t('accountSettings.sections.security')}>
      <form
        className="flex max-w-md flex-col gap-4 rounded-xl bg-surface-1 p-5"
        noValidate
        onSubmit={(e) => {
          change.reset();
          void form.handleSubmit((values) => change.mutate(values))(e);
        }}
      >
        <h3 className="font-semibold text-fg">{t('accountSettings.security.title')}</h3>
        <p className="text-sm text-fg-muted">{t('accountSettings.security.text')}</p>
        {/* The form's one message below says what is wrong (password-error): the fields only say which. */}
        <FormField
          id="settings-password"
          label={t('accountSettings.security.password')}
          type="password"
          {...form.register(FIELDS.password)}
          invalid={!!form.formState.errors.password}
          autoComplete="new-password"
        />
        <FormField
          id="settings-password-confirm"
          label={t('accountSettings.security.confirm')}
          type="password"
          {...form.register(FIELDS.confirm)}
          invalid={!!form.formState.errors.confirm}
          autoComplete="new-password"
        />
        {error && (
          <p
            role="alert"
            className="rounded-lg bg-red-900/40 px-3 py-2 text-sm text-red-200"
            data-testid="password-error"
          >
            {error}
          </p>
        )}
        {change.isSuccess && (
          <p role="status" className="rounded-lg bg-green-900/40 px-3 py-2 text-sm text-green-200">
            {t('accountSettings.security.done')}
          </p>
        )}
        <div>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? t('accountSettings.security.working') : t('accountSettings.security.submit')}
          </Button>
        </div>
      </form>
    </Section>
  );
}
