/** The role that makes an account an admin (decision 012: roles are the older servers' role list). */
export const ADMIN_ROLE = 'admin';

export function parseRoles(json: string): string[] {
  try {
    const roles: unknown = JSON.parse(json);
    return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

export const hasRole = (rolesJson: string, role: string) => parseRoles(rolesJson).includes(role);

/** The role list with `role` switched on or off (order kept, no duplicates). */
export function withRole(roles: string[], role: string, on: boolean): string[] {
  const others = roles.filter((r) => r !== role);
  return on ? [...others, role] : others;
}

/** Emails compare trimmed and lower-cased everywhere (registration, sign-in, ADMIN_EMAILS, the CLI). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
