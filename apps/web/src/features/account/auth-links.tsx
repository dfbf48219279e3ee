import { Link } from 'react-router';

/** Under a sign-in or registration form: the other of the two ("No account yet? Register"). */
export function SwitchLink({ text, to, label }: { text: string; to: string; label: string }) {
  return (
    <p className="mt-6 text-center text-sm text-fg-muted">
      {text}{' '}
      <Link to={to} className="font-semibold text-fg-accent hover:underline">
        {label}
      </Link>
    </p>
  );
}

/** Where the other sign-in method is offered, when the instance has both. */
export function OtherMethod({ to, label }: { to: string; label: string }) {
  return (
    <p className="mt-4 text-center text-sm">
      <Link
        to={to}
        replace
        className="font-semibold text-fg-accent hover:underline"
        data-testid="other-method"
      >
        {label}
      </Link>
    </p>
  );
}
