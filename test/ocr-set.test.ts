import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { compare } from '../bench/ocr/compare.ts';
import { holds, isFedex, isS10, isSscc, isUps, isUsps } from '../bench/ocr/numbers.ts';
import { generateSet, truths } from '../bench/ocr/set.ts';
import type { LabelTruth } from '../bench/ocr/truth.ts';
import type { LabelAddress, LabelReading } from '../src/modules/ocr/reading/types.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const collect = async (options: Parameters<typeof generateSet>[0]) => {
  const out: Array<{ id: string; mediaType: string; hash: string; truth: LabelTruth }> = [];
  for await (const sample of generateSet(options)) {
    out.push({ id: sample.id, mediaType: sample.mediaType, hash: sha(sample.bytes), truth: sample.truth });
  }
  return out;
};

describe('the label-reading accuracy set', () => {
  it('gives the same labels, byte for byte, for the same seed, and others for another seed', async () => {
    const first = await collect({ seed: 7, layouts: ['tms'], limit: 8 });
    const again = await collect({ seed: 7, layouts: ['tms'], limit: 8 });
    assert.deepEqual(
      first.map((s) => s.id),
      [
        'tms-0-clean',
        'tms-0-pdf',
        'tms-0-rotated',
        'tms-0-blurred',
        'tms-0-jpeg40',
        'tms-0-low_contrast',
        'tms-0-perspective',
        'tms-0-combined',
      ],
    );
    assert.deepEqual(again, first);
    assert.equal(new Set(first.map((s) => s.hash)).size, first.length, 'every variant is a different image');
    // A subset asked for alone is the same bytes as in the whole set.
    const alone = await collect({ seed: 7, layouts: ['tms'], variants: ['combined'], limit: 1 });
    assert.deepEqual(alone[0], first.at(-1));
    const other = truths(8, 6);
    assert.notDeepEqual(other, truths(7, 6));
    assert.deepEqual(truths(7, 6), truths(7, 6));
  });

  it('prints only numbers whose check digits hold, and a one-digit change is caught', () => {
    const labels = truths(20261127, 40);
    assert.equal(labels.length, 9 * 40);
    assert.deepEqual([...new Set(labels.map((t) => t.layout))].sort(), [
      'canada_post',
      'dhl_express',
      'fedex',
      'gs1_sscc',
      'la_poste',
      'royal_mail',
      'tms',
      'ups',
      'usps',
    ]);
    let changes = 0;
    for (const truth of labels) {
      const number = truth.tracking_number;
      assert.ok(holds(truth.layout, number), `${truth.layout} ${number}`);
      if (truth.layout === 'tms') continue; // the service's own numbers carry no check digit
      const checkAt = /^[A-Z]{2}\d{9}[A-Z]{2}$/.test(number) ? 10 : number.length - 1;
      const check = Number(number[checkAt]);
      for (let at = 0; at < number.length; at++) {
        if (!/\d/.test(number[at]!)) continue;
        const changed = `${number.slice(0, at)}${(Number(number[at]) + 1) % 10}${number.slice(at + 1)}`;
        changes++;
        if (!holds(truth.layout, changed)) continue;
        // Only where a format folds two remainders into one check digit may a change go unseen:
        // FedEx's 10 printed as 0, the S10's 10 as 0 and 11 as 5.
        assert.ok(
          at !== checkAt &&
            ((truth.layout === 'fedex' && check === 0) ||
              (['canada_post', 'royal_mail', 'la_poste'].includes(truth.layout) &&
                (check === 0 || check === 5))),
          `${truth.layout} ${number} -> ${changed} still holds`,
        );
      }
      for (let digit = 0; digit <= 9; digit++) {
        if (digit === check) continue;
        const changed = `${number.slice(0, checkAt)}${digit}${number.slice(checkAt + 1)}`;
        assert.ok(!holds(truth.layout, changed), `${number} -> ${changed}`);
      }
    }
    assert.ok(changes > 3000);
  });

  it('agrees with the carriers\u2019 published sample numbers', () => {
    assert.ok(isUps('1Z999AA10123456784'));
    assert.ok(!isUps('1Z999AA10123456785'));
    for (const n of ['986578788855', '477179081230', '799531274483']) assert.ok(isFedex(n), n);
    assert.ok(isUsps('9405511899223197428490'));
    // UPU S10 Annex A and postal operators' numbers, with the folded check digits 5 and 0.
    for (const n of ['EE876543216CA', 'CV010000155UA', 'RT395449360DE', 'RR072705659PL'])
      assert.ok(isS10(n), n);
    assert.ok(!isS10('EE876543217CA'));
    // The SSCC of the GS1 General Specifications' example.
    assert.ok(isSscc('106141412345678908'));
  });
});

describe('the comparator', () => {
  const [truth] = truths(3, 1).filter((t) => t.layout === 'gs1_sscc');
  const address = (a: LabelTruth['recipient'], overrides: Partial<LabelAddress> = {}): LabelAddress => ({
    lines: [],
    name: a.name,
    street: a.street,
    postal_code: a.postal_code,
    city: a.city,
    country: a.country,
    ...overrides,
  });
  const found = <T>(value: T) => ({ value, confidence: 1, region: null, source: 'text' as const });
  const reading = (overrides: Partial<LabelReading['fields']> = {}): LabelReading => ({
    width: 1200,
    height: 1800,
    barcodes: [],
    text: '',
    fields: {
      tracking_numbers: [found({ number: truth!.tracking_number, carrier: 'unknown', format: 'gs1_sscc' })],
      // A pallet label's SSCC names no carrier, and none is printed.
      carrier: null,
      // As a reader may give them: other case, no accents, the postal code without its space.
      sender: found(
        address(truth!.sender, {
          postal_code: truth!.sender.postal_code.replace(' ', '').toLowerCase(),
          city: truth!.sender.city.toUpperCase().normalize('NFD').replace(/\p{M}/gu, ''),
        }),
      ),
      recipient: found(address(truth!.recipient)),
      references: [found('Other 1'), found(` ${truth!.reference.toLowerCase()} `)],
      weight: found({ value: 1, unit: 'kg' as const, grams: truth!.weight.grams * 1.009 }),
      dimensions: null,
      service_level: found(truth!.service_level.toLowerCase()),
      ...overrides,
    },
  });

  it('counts a reading that says what the label says as right in every field', () => {
    const verdict = compare(truth!, reading());
    assert.deepEqual(
      Object.entries(verdict.matched).filter(([, ok]) => !ok),
      [],
    );
    assert.deepEqual(verdict.wrongNumbers, []);
  });

  it('never counts a different value as a match, and counts wrong numbers', () => {
    const t = truth!;
    const otherNumber = `${(Number(t.tracking_number[0]) + 1) % 10}${t.tracking_number.slice(1)}`;
    const verdict = compare(
      t,
      reading({
        tracking_numbers: [
          found({ number: otherNumber, carrier: 'unknown', format: 'gs1_sscc' }),
          found({ number: t.other_numbers[0]!, carrier: 'unknown', format: 'gtin' }),
          found({ number: t.tracking_number, carrier: 'unknown', format: 'gs1_sscc' }),
        ],
        carrier: found('dhl_express'),
        recipient: found(
          address(t.recipient, {
            postal_code: `${t.recipient.postal_code}1`,
            city: `${t.recipient.city} Nord`,
            country: 'XX',
          }),
        ),
        references: [found(`${t.reference}0`)],
        weight: found({ value: 1, unit: 'kg', grams: t.weight.grams * 1.02 }),
        service_level: found('EXPRESS'),
      }),
    );
    assert.equal(verdict.matched.tracking_found, true);
    assert.equal(verdict.matched.tracking_first, false);
    // The GTIN printed on the pallet label is a real number of the label, not a wrong one.
    assert.deepEqual(verdict.wrongNumbers, [otherNumber]);
    for (const field of [
      'carrier',
      'recipient_postal_code',
      'recipient_city',
      'recipient_country',
      'reference',
      'weight',
      'service_level',
    ] as const) {
      assert.equal(verdict.matched[field], false, field);
    }
    // Nothing read: nothing right, but the carrier a pallet label does not name.
    const nothing = compare(t, null);
    assert.deepEqual(
      Object.entries(nothing.matched).filter(([, ok]) => ok),
      [['carrier', true]],
    );
  });
});
