/**
 * Addresses of nine countries in their own formats: real cities with postal codes of the right
 * shape (and in the city's range), plausible streets and names. Small seeded lists, no network.
 */
import type { Random } from './random.ts';

export type Country = 'US' | 'CA' | 'GB' | 'FR' | 'DE' | 'NL' | 'ES' | 'IT' | 'AU';

export interface TruthAddress {
  name: string;
  street: string[];
  postal_code: string;
  city: string;
  /** State, province or county where the country prints one. */
  region: string | null;
  country: Country;
}

export const COUNTRY_NAMES: Record<Country, string> = {
  US: 'United States',
  CA: 'Canada',
  GB: 'United Kingdom',
  FR: 'France',
  DE: 'Germany',
  NL: 'Netherlands',
  ES: 'Spain',
  IT: 'Italy',
  AU: 'Australia',
};

const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
const GB_INWARD = 'ABDEFGHJLNPQRSTUWXYZ';
const CA_LETTERS = 'ABCEGHJKLMNPRSTVWXYZ';

type City = { city: string; region: string | null; postal: (random: Random) => string };
const fixed =
  (...codes: string[]) =>
  (random: Random) =>
    random.pick(codes);
const gb = (outward: string) => (random: Random) =>
  `${outward} ${random.int(10)}${random.pick([...GB_INWARD])}${random.pick([...GB_INWARD])}`;
const ca = (fsa: string) => (random: Random) =>
  `${fsa} ${random.int(10)}${random.pick([...CA_LETTERS])}${random.int(10)}`;
const nl = (digits: string) => (random: Random) => {
  for (;;) {
    const pair = `${random.pick([...LETTERS])}${random.pick([...LETTERS])}`;
    if (!['SA', 'SD', 'SS'].includes(pair)) return `${digits} ${pair}`;
  }
};
const range = (prefix: string, low: number, high: number, width: number) => (random: Random) =>
  `${prefix}${String(low + random.int(high - low + 1)).padStart(width, '0')}`;

const CITIES: Record<Country, City[]> = {
  US: [
    { city: 'New York', region: 'NY', postal: fixed('10001', '10011', '10016', '10023') },
    { city: 'Chicago', region: 'IL', postal: fixed('60601', '60607', '60614') },
    { city: 'Los Angeles', region: 'CA', postal: fixed('90012', '90017', '90026') },
    { city: 'Houston', region: 'TX', postal: fixed('77002', '77006', '77019') },
    { city: 'Seattle', region: 'WA', postal: fixed('98101', '98104', '98109') },
    { city: 'Denver', region: 'CO', postal: fixed('80202', '80205', '80218') },
    { city: 'Atlanta', region: 'GA', postal: fixed('30303', '30308', '30318') },
    { city: 'Boston', region: 'MA', postal: fixed('02108', '02116', '02134') },
    { city: 'Miami', region: 'FL', postal: fixed('33130', '33131', '33137') },
    { city: 'Phoenix', region: 'AZ', postal: fixed('85004', '85008', '85016') },
  ],
  CA: [
    { city: 'Toronto', region: 'ON', postal: ca('M5V') },
    { city: 'Montreal', region: 'QC', postal: ca('H2Y') },
    { city: 'Vancouver', region: 'BC', postal: ca('V6B') },
    { city: 'Ottawa', region: 'ON', postal: ca('K1P') },
    { city: 'Calgary', region: 'AB', postal: ca('T2P') },
    { city: 'Halifax', region: 'NS', postal: ca('B3J') },
  ],
  GB: [
    { city: 'London', region: null, postal: gb('EC1A') },
    { city: 'London', region: null, postal: gb('SW1A') },
    { city: 'Manchester', region: null, postal: gb('M1') },
    { city: 'Birmingham', region: null, postal: gb('B1') },
    { city: 'Leeds', region: null, postal: gb('LS1') },
    { city: 'Glasgow', region: null, postal: gb('G1') },
    { city: 'Bristol', region: null, postal: gb('BS1') },
    { city: 'Edinburgh', region: null, postal: gb('EH1') },
  ],
  FR: [
    { city: 'Paris', region: null, postal: range('750', 1, 20, 2) },
    { city: 'Lyon', region: null, postal: range('6900', 1, 9, 1) },
    { city: 'Marseille', region: null, postal: range('130', 1, 16, 2) },
    { city: 'Toulouse', region: null, postal: fixed('31000', '31200', '31300') },
    { city: 'Lille', region: null, postal: fixed('59000', '59800') },
    { city: 'Bordeaux', region: null, postal: fixed('33000', '33100', '33800') },
    { city: 'Nantes', region: null, postal: fixed('44000', '44100', '44300') },
    { city: 'Strasbourg', region: null, postal: fixed('67000', '67100', '67200') },
  ],
  DE: [
    { city: 'Berlin', region: null, postal: fixed('10115', '10178', '10245', '12043') },
    { city: 'München', region: null, postal: fixed('80331', '80469', '81541') },
    { city: 'Hamburg', region: null, postal: fixed('20095', '20354', '22767') },
    { city: 'Köln', region: null, postal: fixed('50667', '50823', '51063') },
    { city: 'Frankfurt am Main', region: null, postal: fixed('60311', '60486', '60594') },
    { city: 'Stuttgart', region: null, postal: fixed('70173', '70178', '70372') },
    { city: 'Düsseldorf', region: null, postal: fixed('40213', '40221', '40477') },
    { city: 'Leipzig', region: null, postal: fixed('04109', '04177', '04275') },
  ],
  NL: [
    { city: 'Amsterdam', region: null, postal: nl('1012') },
    { city: 'Rotterdam', region: null, postal: nl('3011') },
    { city: 'Utrecht', region: null, postal: nl('3511') },
    { city: 'Den Haag', region: null, postal: nl('2511') },
    { city: 'Eindhoven', region: null, postal: nl('5611') },
  ],
  ES: [
    { city: 'Madrid', region: null, postal: fixed('28013', '28004', '28045') },
    { city: 'Barcelona', region: null, postal: fixed('08002', '08010', '08029') },
    { city: 'Valencia', region: null, postal: fixed('46002', '46004', '46021') },
    { city: 'Sevilla', region: null, postal: fixed('41004', '41001', '41010') },
    { city: 'Bilbao', region: null, postal: fixed('48001', '48005', '48009') },
  ],
  IT: [
    { city: 'Roma', region: 'RM', postal: fixed('00186', '00184', '00153') },
    { city: 'Milano', region: 'MI', postal: fixed('20121', '20123', '20143') },
    { city: 'Napoli', region: 'NA', postal: fixed('80133', '80138', '80121') },
    { city: 'Torino', region: 'TO', postal: fixed('10121', '10123', '10138') },
    { city: 'Firenze', region: 'FI', postal: fixed('50122', '50123', '50129') },
  ],
  AU: [
    { city: 'Sydney', region: 'NSW', postal: fixed('2000') },
    { city: 'Melbourne', region: 'VIC', postal: fixed('3000') },
    { city: 'Brisbane', region: 'QLD', postal: fixed('4000') },
    { city: 'Perth', region: 'WA', postal: fixed('6000') },
    { city: 'Adelaide', region: 'SA', postal: fixed('5000') },
  ],
};

const STREETS: Record<Country, { names: string[]; format: (number: number, name: string) => string }> = {
  US: {
    names: ['Maple Ave', 'Main St', 'Oak Street', 'Washington Blvd', 'Lakeview Dr', 'Elm St', 'Park Ave'],
    format: (n, s) => `${n} ${s}`,
  },
  CA: {
    names: ['King St W', 'Rue Saint-Paul O', 'Granville St', 'Bank St', 'Stephen Ave', 'Barrington St'],
    format: (n, s) => `${n} ${s}`,
  },
  GB: {
    names: ['High Street', 'Station Road', 'Church Lane', 'Victoria Road', 'Mill Lane', 'Queen Street'],
    format: (n, s) => `${n} ${s}`,
  },
  FR: {
    names: [
      'rue de la République',
      'avenue Jean Jaurès',
      'boulevard Voltaire',
      'rue Victor Hugo',
      'rue des Lilas',
    ],
    format: (n, s) => `${n} ${s}`,
  },
  DE: {
    names: ['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Schillerstraße', 'Lindenallee', 'Berliner Straße'],
    format: (n, s) => `${s} ${n}`,
  },
  NL: {
    names: ['Keizersgracht', 'Kerkstraat', 'Stationsweg', 'Dorpsstraat', 'Molenlaan', 'Oudegracht'],
    format: (n, s) => `${s} ${n}`,
  },
  ES: {
    names: ['Calle Mayor', 'Calle de Alcalá', 'Avenida de la Constitución', 'Calle Real', 'Gran Vía'],
    format: (n, s) => `${s} ${n}`,
  },
  IT: {
    names: ['Via Roma', 'Via Garibaldi', 'Corso Vittorio Emanuele', 'Via Dante', 'Piazza Mazzini'],
    format: (n, s) => `${s} ${n}`,
  },
  AU: {
    names: ['George St', 'Collins St', 'Queen St', 'Hay St', 'King William St', 'Pitt St'],
    format: (n, s) => `${n} ${s}`,
  },
};

const SECOND_LINES: Record<Country, string[]> = {
  US: ['Suite 200', 'Apt 4B', 'Floor 3'],
  CA: ['Unit 12', 'Suite 400'],
  GB: ['Flat 2', 'Unit 5'],
  FR: ['Bâtiment B', 'Appartement 12'],
  DE: ['2. OG', 'Hinterhaus'],
  NL: ['3e verdieping'],
  ES: ['Piso 2 Puerta B'],
  IT: ['Scala B', 'Interno 7'],
  AU: ['Level 4', 'Unit 9'],
};

const FIRST = [
  'Emma',
  'Lucas',
  'Sofia',
  'Noah',
  'Mia',
  'Liam',
  'Chloé',
  'Jonas',
  'Lucía',
  'Marco',
  'Olivia',
  'Ava',
];
const LAST = [
  'Martin',
  'Schmidt',
  'García',
  'Rossi',
  'de Vries',
  'Smith',
  'Tremblay',
  'Brown',
  'Müller',
  'Dubois',
];
const COMPANIES = [
  'Northwind Traders',
  'Acme Supplies Ltd',
  'Blue Harbor Goods',
  'Atelier Lumière',
  'Nordlicht GmbH',
  'Van Dijk Logistiek BV',
  'Distribuciones Sol SL',
  'Bottega Verde Srl',
  'Koala Parts Pty Ltd',
];

export function makeAddress(random: Random, country: Country, company: boolean): TruthAddress {
  const place = random.pick(CITIES[country]);
  const streets = STREETS[country];
  const street = [streets.format(1 + random.int(240), random.pick(streets.names))];
  if (random.next() < 0.3) street.push(random.pick(SECOND_LINES[country]));
  return {
    name: company ? random.pick(COMPANIES) : `${random.pick(FIRST)} ${random.pick(LAST)}`,
    street,
    postal_code: place.postal(random),
    city: place.city,
    region: place.region,
    country,
  };
}

/**
 * The lines a carrier prints for the place, in the country's order: "CHICAGO IL 60601",
 * "75011 PARIS", "LONDON" over "EC1A 1BB", "SYDNEY NSW 2000".
 */
export function placeLines(address: TruthAddress): string[] {
  const { city, region, postal_code: postal } = address;
  switch (address.country) {
    case 'US':
      return [`${city} ${region} ${postal}`];
    case 'CA':
      return [`${city} ${region}  ${postal}`];
    case 'AU':
      return [`${city} ${region} ${postal}`];
    case 'GB':
      return [city, postal];
    case 'IT':
      return [`${postal} ${city} ${region}`];
    default:
      return [`${postal} ${city}`];
  }
}
