import { direction, t, uiLocale } from './i18n';

/** Display formats: API times as UTC, money with its currency, points whole. The locale defaults to the browser's UI language. */

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();

/**
 * One formatter per locale and options: building one costs 60–220 µs, using one about 2 µs, and a
 * list of a thousand rows formats several values per row.
 */
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(
  kind: string,
  locale: string | undefined,
  options: object,
  make: () => F,
): F {
  const key = `${kind}|${locale ?? ''}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as F | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

const numberFormat = (locale: string | undefined, options: Intl.NumberFormatOptions) =>
  cached('number', locale, options, () => new Intl.NumberFormat(locale, options));

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** API timestamps carry no timezone and are UTC. Returns epoch ms, or null when unreadable. */
export function parseApiTimestamp(value: string): number | null {
  const m = TIMESTAMP.exec(value.trim());
  if (!m) return null;
  const zone = m[7] ?? 'Z';
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${zone === 'Z' ? 'Z' : zone.replace(/(\d{2})(\d{2})$/, '$1:$2')}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

export function formatDateTime(value: string, locale = uiLocale()): string {
  const ms = parseApiTimestamp(value);
  if (ms === null) return value;
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  return cached('date', locale, options, () => new Intl.DateTimeFormat(locale, options)).format(ms);
}

/**
 * A day the panel stored as `YYYY-MM-DD` (a date answer), in the panelist's own way of writing a
 * date; the day itself, never shifted by the computer's time zone. Anything else as it is.
 */
export function formatDay(value: string, locale = uiLocale()): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms)) return value;
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeZone: 'UTC' };
  return cached('day', locale, options, () => new Intl.DateTimeFormat(locale, options)).format(ms);
}

/**
 * Names listed as the panelist's language lists them: "Sport, Music", "Sport und Musik",
 * "スポーツ、音楽" (a conjunction's narrow form; the unit lists meant for "1 h 30 min" put bare
 * spaces between names in Japanese).
 */
export function formatList(items: readonly string[], locale = uiLocale()): string {
  const options: Intl.ListFormatOptions = { type: 'conjunction', style: 'narrow' };
  try {
    return cached('list', locale, options, () => new Intl.ListFormat(locale, options)).format(items);
  } catch {
    return items.join(', ');
  }
}

/** The ISO 4217 codes this browser's Intl knows, read once; null where it cannot list them. */
let knownCodes: ReadonlySet<string> | null | undefined;

function intlCurrencies(): ReadonlySet<string> | null {
  if (knownCodes === undefined) {
    const list = (Intl as { supportedValuesOf?: (key: 'currency') => string[] }).supportedValuesOf;
    try {
      knownCodes = list ? new Set(list('currency')) : null;
    } catch {
      knownCodes = null;
    }
  }
  return knownCodes;
}

/**
 * Whether `code` is an ISO 4217 currency code: three capital letters that the
 * browser's Intl knows (`Intl.supportedValuesOf('currency')`, or, where a browser cannot list them,
 * one `Intl.DisplayNames` can name). Intl itself formats any three letters as a currency ("ZZZ
 * 5.00"), so the format alone cannot tell.
 */
export function isCurrencyCode(code: unknown): code is string {
  if (typeof code !== 'string' || !/^[A-Z]{3}$/.test(code)) return false;
  const known = intlCurrencies();
  if (known) return known.has(code);
  try {
    return new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' }).of(code) !== undefined;
  } catch {
    return true; // No way to ask: the shape is all there is to check.
  }
}

/**
 * The most minor units (cents for USD, yen for JPY, fils for BHD) an amount may hold: 10^15. A double
 * holds every decimal of up to 15 significant digits exactly as written (IEEE 754's DBL_DIG), so every
 * amount below it, in its currency's minor unit, prints as the panel sent it; above it neighbouring
 * amounts share one double ($90,071,992,547,409.91 prints as …409.90), and a cost of 1e308 printed
 * a 400-character "£100,000,…". 10^15 minor units is also below 2^53, a safe integer of them; and
 * no reward is worth ten trillion dollars.
 */
export const MAX_MINOR_UNITS = 1e15;

/** Digits of a currency's minor unit, as Intl formats it (2 for USD, 0 for JPY, 3 for BHD); 0 for a code Intl does not know. */
/**
 * Each currency's answer, asked of Intl once: checking a catalogue asks it for every reward (5,000
 * rewards, a handful of currencies), and each ask built a format's key and read its resolved options
 * anew, some 150 ms of the catalogue's check on a quiet machine.
 */
const minorDigitsOf = new Map<string, number>();

function minorDigits(currency: string): number {
  let digits = minorDigitsOf.get(currency);
  if (digits === undefined) {
    digits = isCurrencyCode(currency)
      ? (numberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2)
      : 0;
    // A few hundred at most are ever kept: ISO 4217 has fewer codes, and other texts read 0 alike.
    if (minorDigitsOf.size < 512) minorDigitsOf.set(currency, digits);
  }
  return digits;
}

/**
 * Whether `amount` is an amount of `currency` the interface can mean: a finite number of 0 or more,
 * below {@link MAX_MINOR_UNITS} of the currency's minor unit (whole units for a code Intl does not know).
 */
export function isMoneyAmount(amount: unknown, currency: string): amount is number {
  return (
    typeof amount === 'number' &&
    Number.isFinite(amount) &&
    amount >= 0 &&
    amount * 10 ** minorDigits(currency) < MAX_MINOR_UNITS
  );
}

/**
 * Money with its currency code (through Intl.NumberFormat), or null when it is not money as the interface means it:
 * a currency that is not an ISO 4217 code ("ZZZ", "dollars", "usd"), or an amount that is not a
 * finite number of 0 or more below {@link MAX_MINOR_UNITS} of its minor unit. Callers then show the
 * points alone: a value the panel's catalogue cannot mean is never dressed up as a price ("ZZZ
 * 5.00", "2 dollars", "£100,000,000,…").
 */
export function formatMoney(amount: number | null, currency: string, locale = uiLocale()): string | null {
  if (!isCurrencyCode(currency) || !isMoneyAmount(amount, currency)) return null;
  const format = numberFormat(locale, { style: 'currency', currency });
  return rtl(locale) ? isolateLatinCurrency(format.formatToParts(amount)) : format.format(amount);
}

/**
 * A range of money as the panelist's language writes one ("$5.00 – $100.00", "5,00–100,00 $",
 * "$5.00 ～ $100.00"), or null unless both ends are money ({@link formatMoney}'s rule).
 */
export function formatMoneyRange(min: number, max: number, currency: string, locale = uiLocale()): string | null {
  if (!isCurrencyCode(currency) || !isMoneyAmount(min, currency) || !isMoneyAmount(max, currency)) return null;
  const format = numberFormat(locale, { style: 'currency', currency });
  return rtl(locale) ? isolateLatinCurrency(format.formatRangeToParts(min, max)) : format.formatRange(min, max);
}

const isolateLatinCurrency = (parts: ReadonlyArray<{ type: string; value: string }>): string =>
  parts.map(({ type, value }) => (type === 'currency' && LATIN.test(value) ? LRI + value + PDI : value)).join('');

const LATIN = /\p{Script=Latin}/u;
/** Left-to-right isolate and its end: the currency token between them keeps its letters in order in a right-to-left line. */
const LRI = '\u2066';
const PDI = '\u2069';

/**
 * Whether money in `locale` is laid out right to left. There a currency written in Latin letters
 * with a symbol ("US$", "UK£") is isolated as one left-to-right token: laid out plainly, the
 * bidirectional algorithm sets its symbol apart from its letters ("$US 5.00" for "5.00 US$").
 */
const rtl = (locale: string | undefined): boolean => direction(locale ?? t('lang')) === 'rtl';

/** Points are whole numbers. */
export function formatPoints(points: number, locale = uiLocale()): string {
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(Math.trunc(points));
}

/**
 * Short form for the toolbar badge, which fits about four characters: 950, 1.2k, 12k, 1.2M, with the
 * language's own digits and decimal sign (1,2k in German). The suffix is the short SI one in every
 * language: the language's own compact forms ("1,2 Tsd.", "1,2 tys.") do not fit a badge. A balance
 * below zero keeps its sign (-40, -1.2k): it is owed points, not none.
 */
export function compactPoints(points: number, locale = uiLocale()): string {
  // + 0: a cut -0.5 is -0, which Intl writes "-0".
  const n = Math.trunc(points) + 0;
  if (n < 0) return `-${compactPoints(-n, locale)}`;
  const whole = numberFormat(locale, { maximumFractionDigits: 0, useGrouping: false });
  if (n < 1000) return whole.format(n);
  const units: Array<[number, string]> = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) {
    if (n >= size) {
      const scaled = n / size;
      // Cut, never rounded up: 999,999 points are not "1M".
      const text =
        scaled < 10
          ? numberFormat(locale, { maximumFractionDigits: 1, useGrouping: false }).format(Math.floor(scaled * 10) / 10)
          : whole.format(Math.floor(scaled));
      return `${text}${suffix}`;
    }
  }
  return whole.format(n);
}

/**
 * "just now", "2 minutes ago", "3 hours ago", "yesterday", in the browser's language: in words, not
 * "2 min. ago" (the lines it is set in wrap, so the short style saves nothing worth its reading).
 */
export function formatRelative(thenMs: number, nowMs: number = Date.now(), locale = uiLocale()): string {
  const seconds = Math.round((thenMs - nowMs) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return t('justNow');
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}
