import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hidePrices, PRICE_FIELDS } from './policy.ts';

/** The price fields docs/pricing.md lists: each goes from an object of a hidden family. */
const DOCUMENTED_PRICE_FIELDS = [
  'shipping_price',
  'price_details',
  'currency',
  'tax',
  'amount',
  'price',
  'prices',
  'total',
  'subtotal',
  'base_price',
  'paid_amount',
  'amount_paid',
  'balance',
];
const LABELS = new Set(['label_service']);

describe('price hiding', () => {
  it('hides exactly the documented price fields', () => {
    assert.deepEqual([...PRICE_FIELDS].sort(), [...DOCUMENTED_PRICE_FIELDS].sort());
    const order = Object.fromEntries([
      ['family', 'label_service'],
      ['id', 7],
      ...DOCUMENTED_PRICE_FIELDS.map((field) => [field, 1]),
    ]);
    assert.deepEqual(hidePrices({ result: true, order }, LABELS), {
      result: true,
      order: { family: 'label_service', id: 7, price_hidden: true },
      price_hidden: true,
    });
  });

  it('hides inside the objects of a hidden family only, whatever their depth, keeping names and codes', () => {
    const answer = {
      result: true,
      orders: [
        {
          id: 1,
          family: 'label_service',
          shipping_price: 12.5,
          surcharges: [{ code: 'fuel', amount: 0.75 }],
          rate: { rate_id: 'r1', service: 'Express', price: 9 },
        },
        { id: 2, family: 'local_delivery', shipping_price: 4, surcharges: [{ code: 'fuel', amount: 1 }] },
      ],
    };
    assert.deepEqual(hidePrices(answer, LABELS), {
      result: true,
      orders: [
        {
          id: 1,
          family: 'label_service',
          surcharges: [{ code: 'fuel' }],
          rate: { rate_id: 'r1', service: 'Express' },
          price_hidden: true,
        },
        { id: 2, family: 'local_delivery', shipping_price: 4, surcharges: [{ code: 'fuel', amount: 1 }] },
      ],
      price_hidden: true,
    });
  });

  it('leaves an answer with nothing of a hidden family as it is, unmarked', () => {
    const answer = { result: true, orders: [{ id: 2, family: 'local_delivery', shipping_price: 4 }] };
    assert.equal(hidePrices(answer, LABELS), answer);
    assert.equal(hidePrices(answer, new Set()), answer);
    const labels = { result: true, order: { family: 'label_service', shipping_price: 3 } };
    assert.equal(hidePrices(labels, new Set()), labels, 'no hidden family: not even walked');
  });

  it('marks nothing when an object of a hidden family shows no price: there was nothing to hide', () => {
    const unpriced = { result: true, order: { id: 3, family: 'label_service' } };
    assert.equal(hidePrices(unpriced, LABELS), unpriced);
  });

  it('treats the whole answer as the family an operation declares', () => {
    const rates = { result: true, rates: [{ rate_id: 'a', carrier: 'DHL', price: 5, currency: 'EUR' }] };
    assert.deepEqual(hidePrices(rates, LABELS, 'label_service'), {
      result: true,
      rates: [{ rate_id: 'a', carrier: 'DHL' }],
      price_hidden: true,
    });
    assert.equal(hidePrices(rates, LABELS, 'local_delivery'), rates);
  });

  it('strips an answer that is a list without marking the list', () => {
    assert.deepEqual(hidePrices([{ family: 'label_service', total: 2, id: 1 }], LABELS), [
      { family: 'label_service', id: 1, price_hidden: true },
    ]);
  });

  it("keeps a paged list's total, a count of rows, while it takes the totals that are money", () => {
    const page = { result: true, total: 2, page: 1, per_page: 50, parcels: [{ id: 1, total: 9.5 }] };
    assert.deepEqual(hidePrices(page, LABELS, 'label_service'), {
      result: true,
      total: 2,
      page: 1,
      per_page: 50,
      parcels: [{ id: 1 }],
      price_hidden: true,
    });
  });

  it('takes a family only from a text, and leaves values that are not objects alone', () => {
    const answer = { result: true, note: null, count: 2, order: { family: 7, price: 1 } };
    assert.equal(hidePrices(answer, new Set(['7'])), answer);
    assert.equal(hidePrices(null, LABELS), null);
    assert.equal(hidePrices(null, LABELS, 'label_service'), null);
    // Inside a hidden order, a part with no family of its own loses its prices but is not marked.
    assert.deepEqual(
      hidePrices({ order: { family: 'label_service', price: 1, part: { family: null, price: 2 } } }, LABELS),
      { order: { family: 'label_service', part: { family: null }, price_hidden: true }, price_hidden: true },
    );
    assert.equal(hidePrices('text', LABELS, 'label_service'), 'text');
  });
});
