/** Decimal places of a currency's minor unit (JPY 0, EUR 2, KWD 3), as ISO 4217 and Intl know them. */
export function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** An amount in major units ("12.5", 12.5) to integer minor units, exactly, or null if it has too many decimals. */
export function toMinor(amount: number | string, currency: string): number | null {
  const digits = minorDigits(currency);
  const text =
    typeof amount === 'number'
      ? amount.toFixed(Math.min(20, digits + 6)).replace(/\.?0+$/, '')
      : amount.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > digits) return null;
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0').slice(0, digits) || 0);
  return sign ? -minor : minor;
}

/** Integer minor units to a major-unit number for the wire (12.5 for 1250 cents). */
export function toMajor(minor: number, currency: string): number {
  return minor / 10 ** minorDigits(currency);
}
