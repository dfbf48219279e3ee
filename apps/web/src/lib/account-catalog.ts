// Named imports: the bundler keeps only these sections of the catalog in the lazy chunk.
import { accountSettings, admin, customer, landing, membership, settings } from '../locales/en.json';
import { addLazyCatalog } from './i18n.ts';

/**
 * The texts of the account screens (settings, email sign-in, profiles, membership, landing, admin),
 * left out of the first view (catalog-plugin.ts) and added when one of those lazy screens loads.
 */
addLazyCatalog({ accountSettings, admin, customer, landing, membership, settings });
