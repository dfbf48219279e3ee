import 'i18next';
import type { Resources } from './locales/resources.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'global';
    nsSeparator: '.';
    keySeparator: '.';
    resources: Resources;
    returnNull: false;
  }
}
