// Files tag their tracks with ISO 639-2 codes (`eng`, `fre`/`fra`); the player and the viewer's settings
// speak ISO 639-1 (`en`, `fr`). This maps the languages of the app's 40 UI languages and other common
// ones; anything else keeps the file's code.

const ISO_639_2_TO_1: Readonly<Record<string, string>> = {
  ara: 'ar',
  bul: 'bg',
  ben: 'bn',
  cat: 'ca',
  cze: 'cs',
  ces: 'cs',
  dan: 'da',
  ger: 'de',
  deu: 'de',
  gre: 'el',
  ell: 'el',
  eng: 'en',
  spa: 'es',
  est: 'et',
  per: 'fa',
  fas: 'fa',
  fin: 'fi',
  fil: 'tl',
  fre: 'fr',
  fra: 'fr',
  gle: 'ga',
  glg: 'gl',
  heb: 'he',
  hin: 'hi',
  hrv: 'hr',
  hun: 'hu',
  arm: 'hy',
  hye: 'hy',
  ind: 'id',
  ice: 'is',
  isl: 'is',
  ita: 'it',
  jpn: 'ja',
  geo: 'ka',
  kat: 'ka',
  kaz: 'kk',
  khm: 'km',
  kor: 'ko',
  lit: 'lt',
  lav: 'lv',
  mac: 'mk',
  mkd: 'mk',
  mal: 'ml',
  mon: 'mn',
  mar: 'mr',
  may: 'ms',
  msa: 'ms',
  bur: 'my',
  mya: 'my',
  nep: 'ne',
  dut: 'nl',
  nld: 'nl',
  nor: 'no',
  nob: 'nb',
  nno: 'nn',
  pan: 'pa',
  pol: 'pl',
  por: 'pt',
  rum: 'ro',
  ron: 'ro',
  rus: 'ru',
  slo: 'sk',
  slk: 'sk',
  slv: 'sl',
  alb: 'sq',
  sqi: 'sq',
  srp: 'sr',
  swe: 'sv',
  swa: 'sw',
  tam: 'ta',
  tel: 'te',
  tha: 'th',
  tgl: 'tl',
  tur: 'tr',
  ukr: 'uk',
  urd: 'ur',
  uzb: 'uz',
  vie: 'vi',
  chi: 'zh',
  zho: 'zh',
  wel: 'cy',
  cym: 'cy',
  baq: 'eu',
  eus: 'eu',
  afr: 'af',
  amh: 'am',
  aze: 'az',
  bel: 'be',
  bos: 'bs',
  lat: 'la',
};

/** The ISO 639-1 code of an ISO 639-2 one (`eng`, `fre`, `fra` → `en`, `fr`), or null when it has none here. */
export function fromIso6392(code: string): string | null {
  return ISO_639_2_TO_1[code.toLowerCase()] ?? null;
}

/** `eng` → `en`; a two-letter code stays; empty, `und` and unknown codes → `und` or the file's code. */
export function isoLanguage(code: string | null | undefined): string {
  const value = (code ?? '').trim().toLowerCase();
  if (!value || value === 'und' || value === 'unk' || value === 'mis' || value === 'zxx') return 'und';
  if (/^[a-z]{2}$/.test(value)) return value;
  return ISO_639_2_TO_1[value] ?? value;
}

/** Whether a track's language is the wanted one (`en` matches `eng`, `pt` matches `pt-BR`). */
export function sameLanguage(trackLanguage: string, wanted: string): boolean {
  const a = isoLanguage(trackLanguage).split('-')[0]!;
  const b = isoLanguage(wanted).split('-')[0]!;
  return a !== 'und' && a === b;
}
