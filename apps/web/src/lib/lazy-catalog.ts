// Named imports: the bundler keeps only these two sections of the catalog in the lazy chunk.
import { onboarding, player } from '../locales/en.json';
import { addLazyCatalog } from './i18n.ts';

/** The player's and onboarding's texts, added when their (lazy) code loads. */
addLazyCatalog({ player, onboarding });
