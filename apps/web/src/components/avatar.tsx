import type { ReactNode } from 'react';

/** The six profile icons (sudo-flix's set); unknown icons (e.g. the dropped "handcuffs") show a fallback. */
const ICON_PATHS: Record<string, ReactNode> = {
  cat: <path d="M5 4l3 4h8l3-4v9a7 7 0 0 1-14 0zM9.5 12.5h.01M14.5 12.5h.01M11 16h2" />,
  weed: (
    <path d="M12 21v-5M12 16c-1-4-1-8 0-12 1 4 1 8 0 12zM12 16c-3-2-6-3-8-3 2 2 5 3 8 3zM12 16c3-2 6-3 8-3-2 2-5 3-8 3zM12 15c-2-3-5-5-7-6 1 3 4 5 7 6zM12 15c2-3 5-5 7-6-1 3-4 5-7 6z" />
  ),
  userGroup: (
    <path d="M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM3 20a6 6 0 0 1 12 0M16 11a3 3 0 1 0 0-6M21 20a6 6 0 0 0-4-5.6" />
  ),
  couch: (
    <path d="M4 11V8a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v3M2 13a2 2 0 0 1 4 0v2h12v-2a2 2 0 0 1 4 0v5H2zM5 18v2M19 18v2" />
  ),
  mobile: <path d="M8 2h8a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2zM11 18h2" />,
  ticket: <path d="M3 7h18v3a2 2 0 0 0 0 4v3H3v-3a2 2 0 0 0 0-4zM14 7v10" />,
};
const FALLBACK = <path d="M7 7l10 10M17 7 7 17" />;

export function ProfileIcon({ icon, className = 'h-1/2 w-1/2' }: { icon: string; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden="true"
    >
      {ICON_PATHS[icon] ?? FALLBACK}
    </svg>
  );
}

/** A passphrase account's avatar: a two-colour gradient with the chosen icon. */
export function Avatar({
  colorA,
  colorB,
  icon,
  size = 36,
  label,
}: {
  colorA: string;
  colorB: string;
  icon: string;
  size?: number;
  label?: string;
}) {
  return (
    <span
      className="inline-flex shrink-0 items-center justify-center rounded-full text-white shadow"
      style={{ width: size, height: size, backgroundImage: `linear-gradient(135deg, ${colorA}, ${colorB})` }}
      role={label ? 'img' : undefined}
      aria-label={label}
      data-testid="avatar"
    >
      <ProfileIcon icon={icon} />
    </span>
  );
}
