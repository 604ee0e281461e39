/**
 * The tracking-number formats: the shape of each (on the normalised number: upper case, no
 * separators) and the check digit that must hold. A shape is given to one format only per length
 * and prefix, so a number is read one way.
 */
import { S10_COUNTRY_CARRIERS } from './carriers.ts';
import { fedexExpressCheck, gs1Mod10, mod7Check, s10Check, upsCheck } from './check-digits.ts';

export interface TrackingFormat {
  format: string;
  /** The shape; the check digit is tested after it matches. */
  pattern: RegExp;
  carrier(number: string): string;
  /** The check character the number must end with (or carry where the format puts it). */
  valid(number: string): boolean;
  /** The number as stored: a barcode payload gives the tracking number inside it. */
  stored(number: string): string;
  /**
   * Positions where the format wants a digit that the check digit covers, so a letter the
   * recogniser put there (O for 0) may be repaired; the check digit's own position is never one.
   * Only positions where every change of digit changes the check: none when the check is too weak.
   */
  repairable(number: string): number[];
  /** Only found in free text when the text also names the carrier (a short all-digit shape is too common). */
  needsCarrierWord: boolean;
  /**
   * Only read from a barcode, whose symbology check guards the digits the number's own check
   * leaves out: printed and misread, one of those digits would make another format's number.
   */
  barcodeOnly?: boolean;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const endsWithGs1Check = (n: string) => gs1Mod10(n.slice(0, -1)) === n.slice(-1);
const itself = (n: string) => n;

/** USPS IMpb without its routing prefix: channel AI 91-95, then 20 or 24 digits with the check digit last. */
const IMPB = /^9[1-5](\d{20}|\d{24})$/;

/** A USPS barcode payload "420" + ZIP (5 or 9 digits) + IMpb: the IMpb number, or null. */
function impbAfterRouting(n: string): string | null {
  if (!n.startsWith('420')) return null;
  for (const zip of [5, 9]) {
    const rest = n.slice(3 + zip);
    if (IMPB.test(rest) && endsWithGs1Check(rest)) return rest;
  }
  return null;
}

/** The 34-digit FedEx barcode payload ends with "00" + the 12-digit Express number. */
const fedex34Valid = (n: string) => n.slice(20, 22) === '00' && fedexExpressCheck(n.slice(20, 33)) === n[33];

export const FORMATS: TrackingFormat[] = [
  {
    format: 'ups_1z',
    // 1Z, 6-character shipper number, 2-digit service, 7-digit package number, check digit.
    pattern: /^1Z[0-9A-Z]{6}\d{10}$/,
    carrier: () => 'ups',
    valid: (n) => upsCheck(n.slice(2, 17)) === n[17],
    stored: itself,
    // The check doubles every second character, where a digit off by 5 goes unseen (Z for a 7
    // would be "repaired" to a wrong 2): only the undoubled digits are repaired.
    repairable: () => range(8, 17).filter((position) => position % 2 === 0),
    needsCarrierWord: false,
  },
  {
    format: 'upu_s10',
    // Service indicator, 8-digit serial, check digit, issuing country.
    pattern: /^[A-Z]{2}\d{9}[A-Z]{2}$/,
    carrier: (n) => S10_COUNTRY_CARRIERS[n.slice(11)] ?? 'postal_operator',
    valid: (n) => s10Check(n.slice(2, 10)) === n[10],
    stored: itself,
    // Check 5 stands for two remainders (0 and 6), so one digit change can keep it.
    repairable: (n) => (n[10] === '5' ? [] : range(2, 10)),
    needsCarrierWord: false,
  },
  {
    format: 'fedex_12',
    pattern: /^\d{12}$/,
    carrier: () => 'fedex',
    valid: (n) => fedexExpressCheck(n.slice(0, 11)) === n[11],
    stored: itself,
    // Check 0 stands for two remainders (0 and 10), so one digit change can keep it.
    repairable: (n) => (n[11] === '0' ? [] : range(0, 11)),
    needsCarrierWord: true,
  },
  {
    format: 'fedex_ground',
    pattern: /^\d{15}$/,
    carrier: () => 'fedex',
    valid: endsWithGs1Check,
    stored: itself,
    repairable: () => range(0, 14),
    needsCarrierWord: false,
  },
  {
    // FedEx Ground "96" barcode: 96, 2-digit SCNC, 3-digit service, then the 15-digit Ground
    // number, whose check digit covers only those 15 (the 15 are what is stored). Read as text, a
    // USPS 9x number with its second digit misread as 6 would pass one time in ten.
    format: 'fedex_ground',
    pattern: /^96\d{20}$/,
    carrier: () => 'fedex',
    valid: (n) => endsWithGs1Check(n.slice(7)),
    stored: (n) => n.slice(7),
    repairable: () => [],
    needsCarrierWord: false,
    barcodeOnly: true,
  },
  {
    // FedEx 34-digit barcode payload: the 12-digit Express number is the last 12.
    format: 'fedex_12',
    pattern: /^(?:10|96)\d{32}$/,
    carrier: () => 'fedex',
    valid: fedex34Valid,
    stored: (n) => n.slice(22),
    repairable: () => [],
    needsCarrierWord: false,
  },
  {
    format: 'usps_impb',
    pattern: IMPB,
    carrier: () => 'usps',
    valid: endsWithGs1Check,
    stored: itself,
    repairable: (n) => range(2, n.length - 1),
    needsCarrierWord: false,
  },
  {
    format: 'usps_impb',
    pattern: /^420(\d{27}|\d{31}|\d{35})$/,
    carrier: () => 'usps',
    valid: (n) => impbAfterRouting(n) !== null,
    stored: (n) => impbAfterRouting(n)!,
    repairable: () => [],
    needsCarrierWord: false,
  },
  {
    // The older 20-digit USPS form (service type, mailer, serial), GS1 mod 10 over the 19 digits.
    format: 'usps_20',
    pattern: /^(?!00)\d{20}$/,
    carrier: () => 'usps',
    valid: endsWithGs1Check,
    stored: itself,
    repairable: () => range(0, 19),
    needsCarrierWord: false,
  },
  {
    format: 'canada_post_16',
    pattern: /^\d{16}$/,
    carrier: () => 'canada_post',
    valid: endsWithGs1Check,
    stored: itself,
    repairable: () => range(0, 15),
    needsCarrierWord: false,
  },
  {
    format: 'gs1_sscc',
    pattern: /^\d{18}$/,
    carrier: () => 'unknown',
    valid: endsWithGs1Check,
    stored: itself,
    repairable: () => range(0, 17),
    needsCarrierWord: false,
  },
  {
    // The SSCC with its application identifier (00) in front, as a GS1-128 barcode carries it.
    format: 'gs1_sscc',
    pattern: /^00\d{18}$/,
    carrier: () => 'unknown',
    valid: (n) => endsWithGs1Check(n.slice(2)),
    stored: (n) => n.slice(2),
    repairable: () => range(2, 19),
    needsCarrierWord: false,
  },
  {
    // DHL Express waybill: 9 digits and their remainder mod 7. A weak check (a digit off by 7 passes,
    // one number in seven of any 10 digits passes), so never repaired and in text only beside "DHL".
    format: 'dhl_express',
    pattern: /^\d{9}[0-6]$/,
    carrier: () => 'dhl_express',
    valid: (n) => mod7Check(n.slice(0, 9)) === n[9],
    stored: itself,
    repairable: () => [],
    needsCarrierWord: true,
  },
];

/** The check character(s) appended to a body, per format: for tests and generators. */
export function completeTrackingNumber(format: string, body: string): string {
  const b = body.replace(/[\s-]/g, '').toUpperCase();
  const digits = (lengths: number[]) => {
    if (!/^\d+$/.test(b) || !lengths.includes(b.length)) {
      throw new Error(`${format} needs a body of ${lengths.join(' or ')} digits`);
    }
  };
  switch (format) {
    case 'ups_1z':
      if (!/^1Z[0-9A-Z]{6}\d{9}$/.test(b)) throw new Error('ups_1z needs 1Z + 6 characters + 9 digits');
      return b + upsCheck(b.slice(2));
    case 'upu_s10':
      if (!/^[A-Z]{2}\d{8}[A-Z]{2}$/.test(b)) throw new Error('upu_s10 needs 2 letters + 8 digits + country');
      return b.slice(0, 10) + s10Check(b.slice(2, 10)) + b.slice(10);
    case 'fedex_12':
      digits([11]);
      return b + fedexExpressCheck(b);
    case 'dhl_express':
      digits([9]);
      return b + mod7Check(b);
    case 'fedex_ground':
      digits([14]);
      return b + gs1Mod10(b);
    case 'usps_20':
      digits([19]);
      return b + gs1Mod10(b);
    case 'usps_impb':
      digits([21, 25]);
      return b + gs1Mod10(b);
    case 'canada_post_16':
      digits([15]);
      return b + gs1Mod10(b);
    case 'gs1_sscc':
      digits([17]);
      return b + gs1Mod10(b);
    case 'gs1_gsin':
      digits([16]);
      return b + gs1Mod10(b);
    default:
      throw new Error(`Unknown tracking number format ${format}`);
  }
}
