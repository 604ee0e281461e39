/**
 * Check digits of the tracking-number formats the label set prints, written here from the
 * carriers' published rules and on purpose not shared with the service's own code: if both
 * made the same mistake, a bench using the service's routines to make its truth could not see it.
 */
import type { Random } from './random.ts';

const digitsOf = (text: string) => [...text].map(Number);

/** UPS 1Z: letters count as (char code - 63) mod 10 (A=2 … H=9, I=0, J=1 …), odd places doubled, mod 10. */
export function upsCheckDigit(body15: string): number {
  let sum = 0;
  [...body15].forEach((char, i) => {
    const value = /\d/.test(char) ? Number(char) : (char.charCodeAt(0) - 63) % 10;
    sum += i % 2 === 1 ? value * 2 : value;
  });
  return (10 - (sum % 10)) % 10;
}
export const isUps = (n: string) =>
  /^1Z[0-9A-Z]{16}$/.test(n) && upsCheckDigit(n.slice(2, 17)) === Number(n[17]);

/**
 * FedEx 12-digit: the 11 digits weighted 1, 3, 7 repeating from the right (3, 1, 7 … from the
 * left), mod 11, where 10 counts as 0. Checked against FedEx's published sample numbers
 * (986578788855, 477179081230, 799531274483) in test/ocr-set.test.ts.
 */
export function fedexCheckDigit(body11: string): number {
  const weights = [1, 3, 7];
  const sum = digitsOf(body11)
    .reverse()
    .reduce((total, digit, i) => total + digit * weights[i % 3]!, 0);
  return (sum % 11) % 10;
}
export const isFedex = (n: string) => /^\d{12}$/.test(n) && fedexCheckDigit(n.slice(0, 11)) === Number(n[11]);

/** GS1 mod 10 (USPS IMpb, SSCC): weights 3, 1 from the rightmost data digit. */
export function gs1CheckDigit(body: string): number {
  const sum = digitsOf(body)
    .reverse()
    .reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
}
export const isUsps = (n: string) =>
  /^9[2-5]\d{20}$/.test(n) && gs1CheckDigit(n.slice(0, 21)) === Number(n[21]);
export const isSscc = (n: string) => /^\d{18}$/.test(n) && gs1CheckDigit(n.slice(0, 17)) === Number(n[17]);

/** DHL Express waybill: the first nine digits as a number, mod 7. */
export const dhlCheckDigit = (body9: string) => Number(BigInt(body9) % 7n);
export const isDhl = (n: string) => /^\d{10}$/.test(n) && dhlCheckDigit(n.slice(0, 9)) === Number(n[9]);

/** UPU S10: serial weighted 8 6 4 2 3 5 9 7, 11 - sum mod 11, where 10 gives 0 and 11 gives 5. */
export function s10CheckDigit(serial8: string): number {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = digitsOf(serial8).reduce((total, digit, i) => total + digit * weights[i]!, 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}
export const isS10 = (n: string) =>
  /^[A-Z]{2}\d{9}[A-Z]{2}$/.test(n) && s10CheckDigit(n.slice(2, 10)) === Number(n[10]);

/** The service's own numbers: prefix and ten Crockford base32 characters, with no check digit. */
export const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const isTms = (n: string) => /^TMS[0-9A-HJKMNP-TV-Z]{10}$/.test(n);

const digits = (random: Random, count: number) =>
  Array.from({ length: count }, () => String(random.int(10))).join('');

export const makeNumber = {
  ups(random: Random): string {
    const alnum = '0123456789ABCDEFGHJKLMNPRSTVWXYZ';
    const shipper = Array.from({ length: 6 }, () => random.pick([...alnum])).join('');
    const body = `${shipper}${random.pick(['01', '02', '03', '12', '13', '42'])}${digits(random, 7)}`;
    return `1Z${body}${upsCheckDigit(body)}`;
  },
  fedex(random: Random): string {
    const body = `7${digits(random, 10)}`;
    return `${body}${fedexCheckDigit(body)}`;
  },
  usps(random: Random): string {
    // 94 (the channel), 001 (service type), a 9-digit mailer id, a 7-digit serial.
    const body = `${random.pick(['9400', '9205', '9261'])}1${digits(random, 16)}`;
    return `${body}${gs1CheckDigit(body)}`;
  },
  dhl(random: Random): string {
    const body = `${random.int(9) + 1}${digits(random, 8)}`;
    return `${body}${dhlCheckDigit(body)}`;
  },
  s10(random: Random, country: 'GB' | 'FR' | 'CA', service: string): string {
    const serial = digits(random, 8);
    return `${service}${serial}${s10CheckDigit(serial)}${country}`;
  },
  sscc(random: Random): string {
    // Extension digit, a 9-digit GS1 company prefix, a 7-digit serial.
    const body = `${random.int(10)}${random.pick(['0614141', '3017620', '4006381', '5012345'])}${digits(random, 9)}`;
    return `${body}${gs1CheckDigit(body)}`;
  },
  gtin14(random: Random): string {
    const body = `1${random.pick(['0614141', '3017620', '4006381'])}${digits(random, 5)}`;
    return `${body}${gs1CheckDigit(body)}`;
  },
  tms(random: Random): string {
    return `TMS${Array.from({ length: 10 }, () => random.pick([...CROCKFORD])).join('')}`;
  },
};

/** Whether a number holds under the rule of its carrier (the set's own truth, never the reader's). */
export function holds(carrier: string, number: string): boolean {
  switch (carrier) {
    case 'ups':
      return isUps(number);
    case 'fedex':
      return isFedex(number);
    case 'usps':
      return isUsps(number);
    case 'dhl_express':
      return isDhl(number);
    case 'canada_post':
      return isS10(number) && number.endsWith('CA');
    case 'royal_mail':
      return isS10(number) && number.endsWith('GB');
    case 'la_poste':
      return isS10(number) && number.endsWith('FR');
    case 'gs1_sscc':
      return isSscc(number);
    case 'tms':
      return isTms(number);
    default:
      return false;
  }
}
