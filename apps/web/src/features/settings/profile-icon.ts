import { profileIcons } from '@marquee/contract/values';
import type { ProfileIcon } from '@marquee/contract';

export const isProfileIcon = (icon: string): icon is ProfileIcon =>
  (profileIcons as readonly string[]).includes(icon);
