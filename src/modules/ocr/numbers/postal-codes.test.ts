import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { postcodeValidator } from 'postcode-validator';
import {
  findPostalCode,
  normalisePostalCode,
  POSTAL_CODE_COUNTRIES,
  validPostalCode,
} from './postal-codes.ts';

/** Real codes per country: [as a customer may type it, as written]; then codes of the wrong shape. */
const CODES: Record<string, { valid: [string, string][]; invalid: string[] }> = {
  US: {
    valid: [
      ['20500', '20500'],
      ['90210', '90210'],
      ['10001-1234', '10001-1234'],
      ['100011234', '10001-1234'],
    ],
    invalid: ['2050', '205000', '10001-123', 'ABCDE'],
  },
  CA: {
    valid: [
      ['k1a0b1', 'K1A 0B1'],
      ['H3Z 2Y7', 'H3Z 2Y7'],
      ['V6B-4Y8', 'V6B 4Y8'],
      ['T2P 2M5', 'T2P 2M5'],
    ],
    invalid: ['D1A 0B1', 'K1A 0B', 'W1A 0B1', 'K1A 0O1', '12345'],
  },
  GB: {
    valid: [
      ['SW1A 1AA', 'SW1A 1AA'],
      ['sw1a1aa', 'SW1A 1AA'],
      ['EC1A 1BB', 'EC1A 1BB'],
      ['W1A 0AX', 'W1A 0AX'],
      ['M1 1AE', 'M1 1AE'],
      ['B33 8TH', 'B33 8TH'],
      ['CR2 6XH', 'CR2 6XH'],
      ['DN55 1PT', 'DN55 1PT'],
      ['GIR 0AA', 'GIR 0AA'],
    ],
    invalid: ['Q1 1AA', 'SW1A 1CA', 'SW1A1A', '12345', 'V1 1AA'],
  },
  FR: {
    valid: [
      ['75008', '75008'],
      ['F-75008', '75008'],
      ['97400', '97400'],
      ['20000', '20000'],
    ],
    invalid: ['7500', '99000', '00100', '750080'],
  },
  DE: {
    valid: [
      ['10115', '10115'],
      ['01067', '01067'],
      ['D-80331', '80331'],
    ],
    invalid: ['00123', '1011', 'D-1011'],
  },
  NL: {
    valid: [
      ['1012 JS', '1012 JS'],
      ['1012js', '1012 JS'],
      ['3511 LX', '3511 LX'],
    ],
    invalid: ['0123 AB', '1234 SA', '1234', '1234 A1'],
  },
  BE: {
    valid: [
      ['1000', '1000'],
      ['B-9000', '9000'],
    ],
    invalid: ['0999', '10000'],
  },
  ES: {
    valid: [
      ['28013', '28013'],
      ['08001', '08001'],
      ['52001', '52001'],
    ],
    invalid: ['53000', '00100', '2801'],
  },
  IT: {
    valid: [
      ['00184', '00184'],
      ['20121', '20121'],
    ],
    invalid: ['0018', '001845'],
  },
  CH: {
    valid: [
      ['8001', '8001'],
      ['CH-3003', '3003'],
    ],
    invalid: ['0800', '80010'],
  },
  AT: {
    valid: [
      ['1010', '1010'],
      ['A-5020', '5020'],
    ],
    invalid: ['0100', '10100'],
  },
  PL: {
    valid: [
      ['00-950', '00-950'],
      ['00950', '00-950'],
      ['31-019', '31-019'],
    ],
    invalid: ['0095', '00-9500'],
  },
  SE: {
    valid: [
      ['114 55', '114 55'],
      ['11455', '114 55'],
      ['SE-411 04', '411 04'],
    ],
    invalid: ['01455', '1145'],
  },
  DK: {
    valid: [
      ['1050', '1050'],
      ['8000', '8000'],
    ],
    invalid: ['105', '10500'],
  },
  IE: {
    valid: [
      ['D02 X285', 'D02 X285'],
      ['a65f4e2', 'A65 F4E2'],
      ['D6W 1234', 'D6W 1234'],
      ['T12 YX2W', 'T12 YX2W'],
    ],
    invalid: ['B65 F4E2', 'D02 X28', 'D02 XB85', 'D6 W123'],
  },
  PT: {
    valid: [
      ['1000-001', '1000-001'],
      ['4000-322', '4000-322'],
    ],
    invalid: ['1000', '0100-001', '1000-01'],
  },
  AU: {
    valid: [
      ['2000', '2000'],
      ['0800', '0800'],
      ['3000', '3000'],
    ],
    invalid: ['200', '20000'],
  },
  JP: {
    valid: [
      ['100-0001', '100-0001'],
      ['1500001', '150-0001'],
    ],
    invalid: ['100-001', '10000011'],
  },
  CN: {
    valid: [
      ['100000', '100000'],
      ['200120', '200120'],
    ],
    invalid: ['10000', '1000000'],
  },
  SG: {
    valid: [
      ['018956', '018956'],
      ['238823', '238823'],
    ],
    invalid: ['990000', '74000', '0189560'],
  },
  IN: {
    valid: [
      ['110001', '110001'],
      ['400 001', '400001'],
    ],
    invalid: ['011000', '11001'],
  },
  BR: {
    valid: [
      ['01310-100', '01310-100'],
      ['01310100', '01310-100'],
    ],
    invalid: ['0131010', '01310-1000'],
  },
  MX: {
    valid: [
      ['06600', '06600'],
      ['44100', '44100'],
    ],
    invalid: ['0660', '066000'],
  },
};

describe('postal codes per country', () => {
  test('every country read has examples here, and Hong Kong has no postal codes', () => {
    assert.deepEqual([...Object.keys(CODES), 'HK'].sort(), [...POSTAL_CODE_COUNTRIES].sort());
    for (const code of ['999077', '0000', '']) assert.equal(validPostalCode('HK', code), false);
    assert.equal(findPostalCode('HK', 'Flat 2, 8 Queen Street, Central 999077'), null);
  });

  for (const [country, { valid, invalid }] of Object.entries(CODES)) {
    test(`${country}: real codes are accepted and written as the country does; wrong shapes refused`, () => {
      for (const [typed, written] of valid) {
        assert.equal(normalisePostalCode(country, typed), written, typed);
        assert.ok(validPostalCode(country.toLowerCase(), typed), typed);
        // The package's pattern for the country agrees with the written form (its GB pattern
        // misses Girobank's GIR 0AA, a real non-geographic code).
        if (written !== 'GIR 0AA')
          assert.ok(postcodeValidator(written, country), `postcode-validator refuses ${written}`);
      }
      for (const code of invalid) assert.equal(normalisePostalCode(country, code), null, code);
    });
  }

  test('an unknown country has no valid codes', () => {
    assert.equal(validPostalCode('XX', '12345'), false);
  });
});

describe('postal codes in address lines', () => {
  const cases: [string, string, string, number][] = [
    ['US', 'New York, NY 10001-1234', '10001-1234', 13],
    ['US', '1600 Pennsylvania Ave NW, Washington, DC 20500', '20500', 41],
    ['CA', 'Ottawa ON k1a 0b1', 'K1A 0B1', 10],
    ['GB', 'LONDON SW1A 1AA', 'SW1A 1AA', 7],
    ['FR', '75008 PARIS', '75008', 0],
    ['FR', 'F-75008 Paris CEDEX 08', '75008', 0],
    ['DE', '10115 Berlin', '10115', 0],
    ['NL', '1012 JS Amsterdam', '1012 JS', 0],
    ['PL', '00-950 Warszawa', '00-950', 0],
    ['SE', '114 55 Stockholm', '114 55', 0],
    ['IE', 'Dublin 2 D02 X285', 'D02 X285', 9],
    ['PT', '1000-001 Lisboa', '1000-001', 0],
    ['JP', '〒100-0001 Tokyo', '100-0001', 1],
    ['AU', 'Sydney NSW 2000', '2000', 11],
    ['BR', 'São Paulo - SP 01310-100', '01310-100', 15],
    ['IN', 'New Delhi 110001', '110001', 10],
  ];
  for (const [country, line, code, start] of cases) {
    test(`${country}: "${line}"`, () => {
      const found = findPostalCode(country, line);
      assert.deepEqual(found, { code, country, start, end: found ? found.end : -1 });
      assert.equal(normalisePostalCode(country, line.slice(found!.start, found!.end)), code);
    });
  }

  test('a number of the wrong shape, or inside a longer one, is no postal code', () => {
    assert.equal(findPostalCode('DE', 'Tel 030 1234567'), null);
    assert.equal(findPostalCode('US', 'Order 1234567890'), null);
    assert.equal(findPostalCode('FR', '99000 Nowhere'), null);
  });

  test('without a country, only shapes that name their country are taken', () => {
    assert.deepEqual(findPostalCode(null, 'Toronto ON M5V 3L9'), {
      code: 'M5V 3L9',
      country: 'CA',
      start: 11,
      end: 18,
    });
    assert.equal(findPostalCode(null, 'Manchester M1 1AE')?.country, 'GB');
    assert.equal(findPostalCode(null, 'Springfield IL 62704-1234')?.code, '62704-1234');
    assert.equal(findPostalCode(null, '75008 Paris'), null);
  });
});
