import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CARRIERS,
  completeTrackingNumber,
  findTrackingNumbers,
  recogniseTrackingNumber,
  type TrackingMatch,
  trackingNumbersFromBarcode,
} from './tracking-numbers.ts';

/** Published or documented examples, by format: [as printed, number stored, carrier]. */
const PUBLISHED: Record<string, [string, string, string][]> = {
  ups_1z: [['1Z 999 AA1 01 2345 6784', '1Z999AA10123456784', 'ups']],
  fedex_12: [
    ['1234 5678 9012', '123456789012', 'fedex'],
    ['7905 3531 2317', '790535312317', 'fedex'],
    ['986578788855', '986578788855', 'fedex'],
  ],
  fedex_ground: [
    ['0414 4176 0228 964', '041441760228964', 'fedex'],
    ['5682 8361 0012 734', '568283610012734', 'fedex'],
  ],
  usps_impb: [
    ['9400 1112 0108 0805 4830 16', '9400111201080805483016', 'usps'],
    ['9505 5110 6960 5048 6006 24', '9505511069605048600624', 'usps'],
    ['9361 2898 7870 0317 6337 95', '9361289878700317633795', 'usps'],
    ['92748931507708513018050063', '92748931507708513018050063', 'usps'],
  ],
  usps_20: [['0307 1790 0005 2348 3741', '03071790000523483741', 'usps']],
  dhl_express: [
    ['3318810025', '3318810025', 'dhl_express'],
    ['8487135506', '8487135506', 'dhl_express'],
  ],
  canada_post_16: [['0073938000549297', '0073938000549297', 'canada_post']],
  gs1_sscc: [['00 0123 4500 0000 0027', '000123450000000027', 'unknown']],
  upu_s10: [
    ['RR 123 456 785 GB', 'RR123456785GB', 'royal_mail'],
    ['EE123456785US', 'EE123456785US', 'usps'],
    ['CP123456785CA', 'CP123456785CA', 'canada_post'],
    ['LA123456785FR', 'LA123456785FR', 'la_poste'],
    ['RR123456785DE', 'RR123456785DE', 'deutsche_post'],
    ['RR123456785ZZ', 'RR123456785ZZ', 'postal_operator'],
  ],
};

/** Bodies per format, for numbers generated here. */
const BODY: Record<string, (random: () => number) => string> = {
  ups_1z: (r) => `1Z${alnum(r, 6)}${digits(r, 9)}`,
  fedex_12: (r) => digits(r, 11),
  fedex_ground: (r) => digits(r, 14),
  usps_impb: (r) => `9${1 + Math.floor(r() * 5)}${digits(r, r() < 0.5 ? 19 : 23)}`,
  usps_20: (r) => `${1 + Math.floor(r() * 9)}${digits(r, 18)}`,
  dhl_express: (r) => digits(r, 9),
  canada_post_16: (r) => digits(r, 15),
  gs1_sscc: (r) => digits(r, 17),
  upu_s10: (r) => `${letters(r, 2)}${digits(r, 8)}${['GB', 'FR', 'CA', 'US', 'DE'][Math.floor(r() * 5)]}`,
};

/** A seeded generator, so a failure is reproducible. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}
const pick = (r: () => number, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
const digits = (r: () => number, n: number) => pick(r, '0123456789', n);
const letters = (r: () => number, n: number) => pick(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', n);
const alnum = (r: () => number, n: number) => pick(r, '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ', n);

function generated(format: string, count: number): string[] {
  const random = seeded(format.length * 7919 + format.charCodeAt(0));
  return Array.from({ length: count }, () => completeTrackingNumber(format, BODY[format]!(random)));
}

/** Independent sums for the two rules whose check digit stands for two remainders. */
function fedexRemainder(body: string): number {
  const weights = [3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1];
  return [...body].reduce((sum, d, i) => sum + Number(d) * weights[i]!, 0) % 11;
}
function s10Remainder(serial: string): number {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  return [...serial].reduce((sum, d, i) => sum + Number(d) * weights[i]!, 0) % 11;
}

/**
 * A one-digit change each check rule cannot see, by the rule's arithmetic: UPS doubles every
 * second character (a digit off by 5 adds 10); DHL's mod 7 misses a digit off by 7; FedEx's check
 * 0 and S10's check 5 each stand for two remainders. Every other change must be refused.
 */
function blindSpot(format: string, original: string, changed: string, position: number): boolean {
  const delta = Math.abs(Number(changed[position]) - Number(original[position]));
  switch (format) {
    case 'ups_1z':
      return position < 17 && position % 2 === 1 && delta === 5;
    case 'dhl_express':
      return position < 9 && delta === 7;
    case 'fedex_12':
      return position < 11 && changed[11] === '0' && [0, 10].includes(fedexRemainder(changed.slice(0, 11)));
    case 'upu_s10':
      return position < 10 && changed[10] === '5' && [0, 6].includes(s10Remainder(changed.slice(2, 10)));
    default:
      return false;
  }
}

function assertEveryDigitChangeRefused(format: string, number: string): void {
  for (let position = 0; position < number.length; position += 1) {
    if (!/\d/.test(number[position]!)) continue;
    for (const digit of '0123456789') {
      if (digit === number[position]) continue;
      const changed = number.slice(0, position) + digit + number.slice(position + 1);
      const match = recogniseTrackingNumber(changed);
      if (match === null || blindSpot(format, number, changed, position)) continue;
      assert.fail(`${changed} (${number} with position ${position} changed) was accepted as ${match.format}`);
    }
  }
}

describe('published numbers', () => {
  for (const [format, examples] of Object.entries(PUBLISHED)) {
    test(`${format}: each published example is accepted with its carrier`, () => {
      for (const [printed, number, carrier] of examples) {
        assert.deepEqual(recogniseTrackingNumber(printed), { number, carrier, format }, printed);
        assert.deepEqual(recogniseTrackingNumber(printed.toLowerCase().replace(/ /g, '-')), {
          number,
          carrier,
          format,
        });
      }
    });
    test(`${format}: every one-digit change of a published example is refused`, () => {
      for (const [, number] of examples) assertEveryDigitChangeRefused(format, number);
    });
  }
});

describe('generated numbers', () => {
  for (const format of Object.keys(BODY)) {
    test(`${format}: generated numbers are accepted, and every one-digit change refused`, () => {
      for (const number of generated(format, 40)) {
        const match = recogniseTrackingNumber(number);
        assert.equal(match?.format, format, number);
        assert.equal(match?.number, number);
        assertEveryDigitChangeRefused(format, number);
      }
    });
  }

  test('the blind spots are only those of the rules: a sample of changes they miss exists', () => {
    // Guards the blind-spot predicate itself: it must describe changes the rules really accept.
    assert.ok(recogniseTrackingNumber('3318810095'), 'DHL: 2 -> 9 at position 7 keeps mod 7');
    assert.ok(recogniseTrackingNumber('1Z999AA10123456784'.replace(/^(.{9})1/, '$16')));
  });
});

describe('payload forms', () => {
  test('the FedEx 34-digit barcode payload gives its 12-digit Express number', () => {
    const match = recogniseTrackingNumber('1001921334250001000300779017972697');
    assert.deepEqual(match, { number: '779017972697', carrier: 'fedex', format: 'fedex_12' });
    assert.equal(recogniseTrackingNumber('1001901781990001000300617767839438'), null);
    assert.equal(recogniseTrackingNumber('9622001900000000000000776632517510')?.number, '776632517510');
  });

  test('a FedEx Ground 96 number is read from barcodes only: as text, a misread USPS 9x could pass', () => {
    assert.equal(recogniseTrackingNumber('9611020987654312345672'), null);
    assert.deepEqual(trackingNumbersFromBarcode('Code128', '9611020987654312345672'), [
      { number: '987654312345672', carrier: 'fedex', format: 'fedex_ground' },
    ]);
    assert.deepEqual(trackingNumbersFromBarcode('Code128', '9611020987654312345673'), []);
  });

  test('the USPS 420 + ZIP routing prefix is stripped, with a 5- or 9-digit ZIP', () => {
    assert.equal(
      recogniseTrackingNumber('420 22153 9101026837331000039521')?.number,
      '9101026837331000039521',
    );
    assert.equal(
      recogniseTrackingNumber('4201002334249200190132607600833457')?.number,
      '9200190132607600833457',
    );
    assert.equal(recogniseTrackingNumber('4201028200009261290113185417468511'), null);
  });

  test('an SSCC with its (00) application identifier', () => {
    assert.equal(recogniseTrackingNumber('(00) 00 0123 4500 0000 0027')?.number, '000123450000000027');
    assert.equal(recogniseTrackingNumber('(00) 00 0123 4500 0000 0028'), null);
  });

  test('near misses are refused: wrong length, letters where digits go, unknown shapes', () => {
    for (const text of [
      '1Z999AA1012345678',
      '1Z999AA101234567844',
      'RR12345678GB',
      '12345',
      '',
      'HELLO WORLD',
    ]) {
      assert.equal(recogniseTrackingNumber(text), null, text);
    }
  });
});

describe('completing numbers', () => {
  test('the check digit is appended where each format puts it', () => {
    assert.equal(completeTrackingNumber('ups_1z', '1Z999AA1012345678'), '1Z999AA10123456784');
    assert.equal(completeTrackingNumber('upu_s10', 'RR12345678GB'), 'RR123456785GB');
    assert.equal(completeTrackingNumber('fedex_12', '12345678901'), '123456789012');
    assert.equal(completeTrackingNumber('gs1_sscc', '00012345000000002'), '000123450000000027');
    assert.throws(() => completeTrackingNumber('fedex_12', '1234'));
    assert.throws(() => completeTrackingNumber('nope', '1234'));
  });
});

describe('free text', () => {
  const label = [
    'FROM: ACME LTD, 12 HIGH STREET',
    'UPS GROUND  TRACKING #: 1Z 999 AA1 01 2345 6784',
    'USPS TRACKING # 9400 1112 0108 0805 4830 16',
    'Phone 555 123 4567  Ref 2026-11-27',
    'FedEx TRK# 7905 3531 2317',
    'RR 123 456 785 GB',
    'again 1Z999AA10123456784',
  ].join('\n');

  test('numbers printed in groups are found, each once, in order', () => {
    assert.deepEqual(
      findTrackingNumbers(label).map((m) => m.number),
      ['1Z999AA10123456784', '9400111201080805483016', '790535312317', 'RR123456785GB'],
    );
  });

  test('short all-digit shapes count only when the text names their carrier', () => {
    assert.deepEqual(findTrackingNumbers('Order 7905 3531 2317 shipped'), []);
    assert.deepEqual(findTrackingNumbers('DHL Express WAYBILL 3318810025'), [
      { number: '3318810025', carrier: 'dhl_express', format: 'dhl_express' },
    ]);
    assert.deepEqual(findTrackingNumbers('Air waybill 3318810025'), []);
  });

  test('a number does not run across lines', () => {
    assert.deepEqual(findTrackingNumbers('9400 1112 0108\n0805 4830 16'), []);
  });

  test('a valid run of groups inside a longer misread number is not taken for a number', () => {
    // 1112 0108 0805 4830 passes as a Canada Post number; beside digit groups it is a fragment.
    assert.ok(recogniseTrackingNumber('1112010808054830'));
    assert.deepEqual(findTrackingNumbers('9400 1112 0108 0805 4830 17'), []);
    assert.equal(findTrackingNumbers('Ref: 1112 0108 0805 4830')[0]?.number, '1112010808054830');
  });
});

describe('recogniser confusions', () => {
  test('letters read for digits are repaired where the format wants a digit', () => {
    assert.equal(findTrackingNumbers('1Z 999 AA1 O1 2345 6784')[0]?.number, '1Z999AA10123456784');
    assert.equal(findTrackingNumbers('IZ 999 AA1 01 2345 6784')[0]?.number, '1Z999AA10123456784');
    assert.equal(findTrackingNumbers('94OO 1112 0108 0805 4830 16')[0]?.number, '9400111201080805483016');
    assert.equal(findTrackingNumbers('RR 12E 456 785 GB').length, 0, 'E is no digit');
    assert.equal(findTrackingNumbers('LA l98 765 431 FR')[0]?.number, 'LA198765431FR');
    // Check 5 stands for two remainders in S10: a repair there could land on a wrong number.
    assert.deepEqual(findTrackingNumbers('RR l23 456 785 GB'), []);
  });

  test('the check digit itself is never repaired, and three repairs are too many', () => {
    assert.deepEqual(findTrackingNumbers('0307 1790 0005 2348 374I'), []);
    assert.deepEqual(findTrackingNumbers('94OO 1112 O108 0805 4830 16'), []);
  });

  test('a letter for a different digit never yields a wrong number', () => {
    const confusions: Record<string, string> = { O: '0', I: '1', S: '5', B: '8', Z: '2' };
    const samples = [
      'fedex_ground',
      'usps_impb',
      'usps_20',
      'canada_post_16',
      'gs1_sscc',
      'ups_1z',
      'upu_s10',
    ]
      .flatMap((format) => generated(format, 6))
      .concat(['1Z999AA10123456784', '9400111201080805483016', '790535312317', '477179081230']);
    let repairedToOriginal = 0;
    for (const number of samples) {
      for (let position = 0; position < number.length; position += 1) {
        for (const [letter, digit] of Object.entries(confusions)) {
          if (!/\d/.test(number[position]!)) continue;
          const read = number.slice(0, position) + letter + number.slice(position + 1);
          const found: TrackingMatch[] = findTrackingNumbers(`FedEx ${read}`);
          // A misread can make another format's valid number as read (a 7 read as Z can turn an
          // SSCC into a UPS 1Z number): no repair is involved, and no check digit can tell.
          if (recogniseTrackingNumber(read)) continue;
          for (const match of found) {
            assert.equal(match.number, number, `${read} gave ${match.number}`);
            assert.equal(
              digit,
              number[position],
              `${read} was repaired though ${letter} is not ${number[position]}`,
            );
          }
          repairedToOriginal += found.length;
        }
      }
    }
    assert.ok(repairedToOriginal > 50, `repairs happen (${repairedToOriginal})`);
  });
});

describe('carriers', () => {
  test('every carrier a format names has a display name', () => {
    const carriers = Object.values(PUBLISHED).flatMap((examples) => examples.map(([, , carrier]) => carrier));
    for (const carrier of [...carriers, 'fedex', 'usps']) assert.ok(CARRIERS[carrier]?.name, carrier);
    assert.ok(CARRIERS.canada_post!.keywords.includes('Postes Canada'));
    assert.ok(CARRIERS.la_poste!.keywords.includes('Colissimo'));
  });
});
