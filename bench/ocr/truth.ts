/** What each label of the set really says: drawn from the seed before any image is made. */
import { type Country, makeAddress, type TruthAddress } from './addresses.ts';
import { makeNumber } from './numbers.ts';
import type { Random } from './random.ts';

export const LAYOUTS = [
  'tms',
  'ups',
  'fedex',
  'usps',
  'dhl_express',
  'canada_post',
  'royal_mail',
  'la_poste',
  'gs1_sscc',
] as const;
export type Layout = (typeof LAYOUTS)[number];

export interface LabelTruth {
  layout: Layout;
  tracking_number: string;
  /** ups, fedex, usps, dhl_express, canada_post, royal_mail, la_poste, gs1_sscc, tms. */
  /** The carrier's code; null on a pallet label, whose SSCC names no carrier. */
  carrier: string | null;
  /** Other numbers really printed or encoded on the label (a GTIN on a pallet label): not wrong if read. */
  other_numbers: string[];
  sender: TruthAddress;
  recipient: TruthAddress;
  reference: string;
  weight: { value: number; unit: 'kg' | 'lb'; grams: number };
  dimensions: { length: number; width: number; height: number; unit: 'cm' | 'in' } | null;
  service_level: string;
  /** What else the drawing needs, fixed by the seed too. */
  print: { date: string; packageNumber: number; packageCount: number; pieces: number; carrierName: string };
}

interface Plan {
  from: Country[];
  to: Country[];
  services: string[];
  unit: 'kg' | 'lb';
  /** Share of labels printing dimensions. */
  dimensions: number;
  number: (random: Random, from: Country) => string;
  carrierNames?: string[];
}

const S10_SERVICES = ['CP', 'CA', 'EE', 'LA', 'RR'];
const PLANS: Record<Layout, Plan> = {
  tms: {
    from: ['FR', 'DE', 'NL', 'GB', 'US', 'ES', 'IT', 'CA', 'AU'],
    to: ['FR', 'DE', 'NL', 'GB', 'US', 'ES', 'IT', 'CA', 'AU'],
    services: ['Standard', 'Express', 'Same day', 'Next day'],
    unit: 'kg',
    dimensions: 0,
    number: (random) => makeNumber.tms(random),
    carrierNames: ['Own Fleet', 'TMS Courier'],
  },
  ups: {
    from: ['US'],
    to: ['US', 'US', 'CA', 'GB', 'DE'],
    services: ['UPS GROUND', 'UPS NEXT DAY AIR', 'UPS 2ND DAY AIR', 'UPS WORLDWIDE SAVER'],
    unit: 'lb',
    dimensions: 0.3,
    number: (random) => makeNumber.ups(random),
  },
  fedex: {
    from: ['US'],
    to: ['US', 'US', 'CA', 'AU', 'FR'],
    services: ['PRIORITY OVERNIGHT', 'STANDARD OVERNIGHT', 'FEDEX 2DAY', 'INTERNATIONAL PRIORITY'],
    unit: 'lb',
    dimensions: 0.5,
    number: (random) => makeNumber.fedex(random),
  },
  usps: {
    from: ['US'],
    to: ['US'],
    services: ['USPS PRIORITY MAIL', 'USPS GROUND ADVANTAGE', 'PRIORITY MAIL EXPRESS'],
    unit: 'lb',
    dimensions: 0,
    number: (random) => makeNumber.usps(random),
  },
  dhl_express: {
    from: ['DE', 'NL', 'GB'],
    to: ['US', 'FR', 'ES', 'IT', 'AU', 'CA', 'DE'],
    services: ['EXPRESS WORLDWIDE', 'EXPRESS 12:00', 'ECONOMY SELECT', 'EXPRESS 9:00'],
    unit: 'kg',
    dimensions: 0.7,
    number: (random) => makeNumber.dhl(random),
  },
  canada_post: {
    from: ['CA'],
    to: ['CA', 'CA', 'US'],
    services: ['Xpresspost', 'Priority', 'Expedited Parcel', 'Regular Parcel'],
    unit: 'kg',
    dimensions: 0.3,
    number: (random) => makeNumber.s10(random, 'CA', random.pick(S10_SERVICES)),
  },
  royal_mail: {
    from: ['GB'],
    to: ['GB', 'GB', 'FR', 'DE'],
    services: ['Tracked 24', 'Tracked 48', 'Special Delivery Guaranteed', 'International Tracked'],
    unit: 'kg',
    dimensions: 0,
    number: (random) => makeNumber.s10(random, 'GB', random.pick(['TT', 'RR', 'LX', 'CP'])),
  },
  la_poste: {
    from: ['FR'],
    to: ['FR', 'FR', 'ES', 'IT', 'DE', 'NL'],
    services: [
      'Colissimo Expert',
      'Colissimo Domicile',
      'Colissimo International',
      'Colissimo Point Retrait',
    ],
    unit: 'kg',
    dimensions: 0.3,
    number: (random) => makeNumber.s10(random, 'FR', random.pick(S10_SERVICES)),
  },
  gs1_sscc: {
    from: ['DE', 'NL', 'FR', 'ES', 'IT'],
    to: ['DE', 'NL', 'FR', 'ES', 'IT', 'GB'],
    services: ['PALLET STANDARD', 'PALLET PREMIUM', 'PALLET ECONOMY'],
    unit: 'kg',
    dimensions: 1,
    number: (random) => makeNumber.sscc(random),
  },
};

const REFERENCES: ((random: Random) => string)[] = [
  (random) => `PO-${10000 + random.int(90000)}`,
  (random) => `ORD-2026-${String(random.int(10000)).padStart(4, '0')}`,
  (random) => `INV${100000 + random.int(900000)}`,
  (random) => `A${random.int(10)}${random.int(10)}-${1000 + random.int(9000)}-K`,
];

export function makeTruth(random: Random, layout: Layout): LabelTruth {
  const plan = PLANS[layout];
  const from = random.pick(plan.from);
  const to = random.pick(plan.to);
  const sender = makeAddress(random, from, random.next() < 0.7);
  const recipient = makeAddress(random, to, random.next() < 0.3);
  const tracking = plan.number(random, from);
  const pallet = layout === 'gs1_sscc';
  // Weights as printed: tenths of a pound, hundredths of a kilogram (the service's own renderer
  // rounds up to 10 g, so whole tens of grams print exactly).
  const value =
    plan.unit === 'lb'
      ? Math.round(random.between(0.5, 60) * 10) / 10
      : pallet
        ? Math.round(random.between(80, 900))
        : Math.round(random.between(0.2, 30) * 100) / 100;
  const grams = Math.round(value * (plan.unit === 'lb' ? 453.59237 : 1000));
  const dimensions =
    random.next() < plan.dimensions
      ? pallet
        ? { length: 120, width: 80, height: 100 + 10 * random.int(10), unit: 'cm' as const }
        : plan.unit === 'lb'
          ? {
              length: 6 + random.int(18),
              width: 4 + random.int(12),
              height: 2 + random.int(10),
              unit: 'in' as const,
            }
          : {
              length: 15 + random.int(46),
              width: 10 + random.int(30),
              height: 5 + random.int(25),
              unit: 'cm' as const,
            }
      : null;
  const packageCount = 1 + random.int(3);
  const day = 1 + random.int(28);
  return {
    layout,
    tracking_number: tracking,
    carrier: pallet ? null : layout,
    other_numbers: pallet ? [makeNumber.gtin14(random)] : [],
    sender,
    recipient,
    reference: random.pick(REFERENCES)(random),
    weight: { value, unit: plan.unit, grams },
    dimensions,
    service_level: random.pick(plan.services),
    print: {
      date: `2026-${String(1 + random.int(12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      packageNumber: 1 + random.int(packageCount),
      packageCount,
      pieces: 4 + random.int(60),
      carrierName: random.pick(plan.carrierNames ?? ['']),
    },
  };
}
