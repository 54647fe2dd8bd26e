/**
 * Money (spec 5 "Money, time and ratings", spec 9 "Money, locale and time").
 * Amounts are integers in the currency's minor unit (pence for GBP).
 */
import { ProblemError, invalidCurrencyProblem } from './problem-error.ts';

/** Spec 3 "Course.currency": default GBP. */
export const DEFAULT_CURRENCY = 'GBP';

/** Spec 9: money is displayed in the en-GB locale. */
export const MONEY_LOCALE = 'en-GB';

/** An ISO 4217 code; 'GBP' is the default and the only one the product uses today. */
export type Currency = 'GBP' | (string & {});

export interface Money {
  /** Integer minor units (pence for GBP). */
  amount: number;
  currency: Currency;
}

/** Spec 5: money must be an integer number of pence, otherwise invalid-currency (400). */
export function assertPence(amount: unknown): asserts amount is number {
  if (typeof amount !== 'number' || !Number.isInteger(amount)) {
    throw new ProblemError(invalidCurrencyProblem('Expected an integer amount of pence'));
  }
}

/** Builds a Money value, checking the amount is integer pence. */
export function money(amount: number, currency: Currency = DEFAULT_CURRENCY): Money {
  assertPence(amount);
  return { amount, currency };
}

/**
 * Intl formatters are slow to make (a page formats dozens of prices, a full build millions) and never change
 * once made: one per locale, currency and decimals.
 */
const formatters = new Map<string, Intl.NumberFormat>();
function formatter(locale: string, currency: Currency, fractionDigits: number | null): Intl.NumberFormat {
  const key = `${locale} ${currency} ${fractionDigits}`;
  let f = formatters.get(key);
  if (!f) {
    f = fractionDigits === null
      ? new Intl.NumberFormat(locale, { style: 'currency', currency })
      : new Intl.NumberFormat(locale, {
        style: 'currency', currency, currencyDisplay: 'narrowSymbol', minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits,
      });
    formatters.set(key, f);
  }
  return f;
}

const digitsOf = new Map<string, number>();

/** Number of minor-unit digits of a currency (2 for GBP, 0 for JPY). */
export function currencyDigits(currency: Currency): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits = formatter(MONEY_LOCALE, currency, null).resolvedOptions().maximumFractionDigits ?? 2;
    digitsOf.set(currency, digits);
  }
  return digits;
}

export interface FormatMoneyOptions {
  /**
   * 'always' (default): always show the currency's decimals ('£12.00').
   * 'auto': hide them for whole amounts ('£12', but '£12.50').
   */
  decimals?: 'always' | 'auto';
  locale?: string;
}

/**
 * Spec 9: formats Money with the narrow currency symbol and en-GB grouping.
 * Default shows 2 decimals ('£1,234.50', '£12.00'); see {@link formatPriceShort}.
 */
export function formatMoney(value: Money, options: FormatMoneyOptions = {}): string {
  assertPence(value.amount);
  const digits = currencyDigits(value.currency);
  const major = value.amount / 10 ** digits;
  const whole = value.amount % 10 ** digits === 0;
  const fractionDigits = options.decimals === 'auto' && whole ? 0 : digits;
  return formatter(options.locale ?? MONEY_LOCALE, value.currency, fractionDigits).format(major);
}

/** Spec 9 (second reading): whole pounds without decimals ('£12'), others with 2 ('£12.50'). */
export function formatPriceShort(value: Money): string {
  return formatMoney(value, { decimals: 'auto' });
}

/**
 * The product's one rule for which reading of spec 9 a screen uses: a price as listed — what a course, an offer, a
 * membership plan or a member's price costs — drops the decimals of a whole amount ('£45', '£49 / month', '£12.50'),
 * so a plan and a course side by side read alike; the amounts of a bill (cost summary lines and totals, receipts,
 * payments) keep them ('£45.00'), so that figures added up line up. This formats the first kind.
 */
export function formatListedPrice(amount: number, currency: Currency = DEFAULT_CURRENCY): string {
  return formatPriceShort(money(amount, currency));
}

/** Convenience: format integer pence in a currency (default 2 decimals: a bill's amounts, see {@link formatListedPrice}). */
export function formatPence(amount: number, currency: Currency = DEFAULT_CURRENCY, options: FormatMoneyOptions = {}): string {
  return formatMoney(money(amount, currency), options);
}

/**
 * Spec 2.14 "Preferred Duration": "+ £{extra_cost}". `extraCost` is integer
 * pence like every other amount; whole pounds drop the decimals ('+ £10', '+ £12.50').
 */
export function formatDurationExtra(extraCost: number, currency: Currency = DEFAULT_CURRENCY): string {
  return `+ ${formatPriceShort(money(extraCost, currency))}`;
}
