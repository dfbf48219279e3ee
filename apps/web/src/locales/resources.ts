import type about from './en/about.json';
import type account from './en/account.json';
import type accountSettings from './en/accountSettings.json';
import type admin from './en/admin.json';
import type auth from './en/auth.json';
import type customer from './en/customer.json';
import type discover from './en/discover.json';
import type dmca from './en/dmca.json';
import type downtime from './en/downtime.json';
import type errors from './en/errors.json';
import type footer from './en/footer.json';
import type global from './en/global.json';
import type history from './en/history.json';
import type home from './en/home.json';
import type jip from './en/jip.json';
import type landing from './en/landing.json';
import type library from './en/library.json';
import type lists from './en/lists.json';
import type continueRow from './en/continueRow.json';
import type rejected from './en/rejected.json';
import type media from './en/media.json';
import type membership from './en/membership.json';
import type navigation from './en/navigation.json';
import type notFound from './en/notFound.json';
import type onboarding from './en/onboarding.json';
import type player from './en/player.json';
import type screens from './en/screens.json';
import type settings from './en/settings.json';
import type support from './en/support.json';
import type trakt from './en/trakt.json';
import type title from './en/title.json';
import type transfer from './en/transfer.json';

/**
 * The English catalog's shape, one entry per namespace (src/locales/en/<namespace>.json): i18next's
 * types check every key against it (src/i18next.d.ts), so a missing or misspelled key fails `tsc`.
 * The completeness test checks that this list and the files agree.
 */
export interface Resources {
  about: typeof about;
  account: typeof account;
  accountSettings: typeof accountSettings;
  admin: typeof admin;
  auth: typeof auth;
  customer: typeof customer;
  discover: typeof discover;
  dmca: typeof dmca;
  downtime: typeof downtime;
  errors: typeof errors;
  footer: typeof footer;
  global: typeof global;
  history: typeof history;
  home: typeof home;
  jip: typeof jip;
  landing: typeof landing;
  library: typeof library;
  lists: typeof lists;
  continueRow: typeof continueRow;
  rejected: typeof rejected;
  media: typeof media;
  membership: typeof membership;
  navigation: typeof navigation;
  notFound: typeof notFound;
  onboarding: typeof onboarding;
  player: typeof player;
  screens: typeof screens;
  settings: typeof settings;
  support: typeof support;
  trakt: typeof trakt;
  title: typeof title;
  transfer: typeof transfer;
}

export type Namespace = keyof Resources;
