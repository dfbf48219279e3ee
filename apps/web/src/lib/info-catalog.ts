// Named imports: the bundler keeps only these sections of the catalog in the lazy chunk.
import { about, dmca, jip, support } from '../locales/en.json';
import { addLazyCatalog } from './i18n.ts';

/** The info pages' texts (about, support, credits, DMCA), left out of the first view and added when one loads. */
addLazyCatalog({ about, dmca, jip, support });
