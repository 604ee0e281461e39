import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAddress } from './addresses.ts';
import { extractFields } from './extract.ts';
import type { TextLine } from './recognise.ts';

/** Lines as the recogniser gives them: one under the other, 40 px apart, in one column. */
function linesOf(texts: string[], confidence = 0.9): TextLine[] {
  return texts.map((text, index) => {
    const region = { x: 50, y: 50 + index * 40, width: 20 * text.length, height: 30 };
    return { text, confidence, region, upright: region };
  });
}

test('a label of its own layout gives every field, the number from its barcode', () => {
  const fields = extractFields(
    [{ format: 'Code128', text: '1Z999AA10123456784', region: { x: 200, y: 1000, width: 800, height: 180 } }],
    linesOf([
      'UPS GROUND',
      'FROM',
      'Acme Parts',
      '12 Rue de Rivoli',
      '75001 Paris, FR',
      'SHIP TO',
      'Jane Smith',
      '500 Main Street',
      'Apt 4B',
      'New York, NY 10001',
      'Weight: 2.35 kg Package 1 of 2',
      'Ref: ORD-10042 2026-11-27',
      'Dims: 30 x 20 x 15 cm',
    ]),
  );
  assert.deepEqual(
    fields.tracking_numbers.map((found) => [found.value.number, found.value.carrier, found.source]),
    [['1Z999AA10123456784', 'ups', 'barcode']],
  );
  assert.equal(fields.carrier?.value, 'ups');
  assert.deepEqual(fields.sender?.value, {
    lines: ['Acme Parts', '12 Rue de Rivoli', '75001 Paris, FR'],
    name: 'Acme Parts',
    street: ['12 Rue de Rivoli'],
    postal_code: '75001',
    city: 'Paris',
    country: 'FR',
  });
  assert.equal(fields.recipient?.value.postal_code, '10001');
  assert.equal(fields.recipient?.value.city, 'New York');
  assert.equal(fields.recipient?.value.country, 'US');
  assert.deepEqual(fields.recipient?.value.street, ['500 Main Street', 'Apt 4B']);
  assert.deepEqual(fields.weight?.value, { value: 2.35, unit: 'kg', grams: 2350 });
  assert.deepEqual(fields.dimensions?.value, { length: 30, width: 20, height: 15, unit: 'cm' });
  assert.equal(fields.references[0]?.value, 'ORD-10042');
  assert.equal(fields.service_level?.value, 'GROUND');
});

test('a printed number counts only when its check digit holds: one misread digit is left out', () => {
  const good = extractFields([], linesOf(['TRACKING #: 1Z 999 AA1 01 2345 6784']));
  assert.deepEqual(
    good.tracking_numbers.map((found) => [found.value.number, found.source]),
    [['1Z999AA10123456784', 'text']],
  );
  const misread = extractFields([], linesOf(['TRACKING #: 1Z 999 AA1 01 2345 6785']));
  assert.deepEqual(misread.tracking_numbers, []);
});

test("the service's own number is taken from its tracking link, never from print alone", () => {
  const own = extractFields(
    [
      {
        format: 'QRCode',
        text: 'https://tms.example/track/ACME7K2M9Q4XZT',
        region: { x: 0, y: 0, width: 9, height: 9 },
      },
    ],
    linesOf(['ACME7K2M9Q4XZT']),
    'https://tms.example/track',
  );
  assert.deepEqual(
    own.tracking_numbers.map((found) => found.value),
    [{ number: 'ACME7K2M9Q4XZT', carrier: 'tms', format: 'tms' }],
  );
  const elsewhere = extractFields(
    [
      {
        format: 'QRCode',
        text: 'https://other.example/track/ACME7K2M9Q4XZT',
        region: { x: 0, y: 0, width: 9, height: 9 },
      },
    ],
    [],
    'https://tms.example/track',
  );
  assert.deepEqual(elsewhere.tracking_numbers, []);
});

test('addresses are read in the forms of their countries', () => {
  const cases: Array<[string[], { postal_code: string; city: string; country: string | null }]> = [
    [
      ['Tom Jones', '10 Downing Street', 'London', 'SW1A 2AA', 'UNITED KINGDOM'],
      { postal_code: 'SW1A 2AA', city: 'London', country: 'GB' },
    ],
    [
      ['Marie Roy', '24 Sussex Dr', 'Ottawa ON K1M 1M4', 'CANADA'],
      { postal_code: 'K1M 1M4', city: 'Ottawa', country: 'CA' },
    ],
    [
      ['Hans Meier', 'Hauptstraße 5', '10115 Berlin', 'GERMANY'],
      { postal_code: '10115', city: 'Berlin', country: 'DE' },
    ],
    [
      ['Jan de Vries', 'Damrak 1', '1012 LG Amsterdam, NL'],
      { postal_code: '1012 LG', city: 'Amsterdam', country: 'NL' },
    ],
    [
      ['Ana Ruiz', 'Calle Mayor 3', '28013 Madrid', 'SPAIN'],
      { postal_code: '28013', city: 'Madrid', country: 'ES' },
    ],
  ];
  for (const [lines, expected] of cases) {
    const address = parseAddress(lines);
    assert.deepEqual(
      { postal_code: address?.postal_code, city: address?.city, country: address?.country },
      expected,
      lines.join(' / '),
    );
  }
});

test('GS1 weights in a barcode are exact; printed weights keep their unit', () => {
  const gs1 = extractFields(
    [
      {
        format: 'GS1-128',
        text: '(00)340123450000000007(3302)001250',
        region: { x: 0, y: 0, width: 9, height: 9 },
      },
    ],
    [],
  );
  assert.deepEqual(gs1.weight?.value, { value: 12.5, unit: 'kg', grams: 12500 });
  const pounds = extractFields([], linesOf(['WT: 3 LBS']));
  assert.deepEqual(pounds.weight?.value, { value: 3, unit: 'lb', grams: 1361 });
});
