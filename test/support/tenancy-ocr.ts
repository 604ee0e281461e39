import assert from 'node:assert/strict';
import { ownLabelPdf, parseLabel } from './ocr.ts';
import { adminOfB, api, type Checks, orderOfA, server, tokenOfA, tokensOfB } from './tenancy.ts';

/** A carrier number on a label both businesses receive a parcel under. */
const SHARED_NUMBER = '1Z999AA10123456784';

/** A's order made from the carrier label, under client_id `label-1`. */
let madeOfA: Promise<number> | undefined;
const labelOrderOfA = () =>
  (madeOfA ??= (async () => {
    const created = await api.post(
      '/api/v1/labels/orders',
      {
        order: { dropoff: { line1: '1 A street' } },
        tracking_numbers: [SHARED_NUMBER],
        client_id: 'label-1',
      },
      { token: tokenOfA },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return created.body.order.id as number;
  })());

export const ocrChecks: Checks = {
  parse_label: async () => {
    await labelOrderOfA();
    // The label of A's own package, and a carrier label A made an order from: B's staff and
    // driver read both, and neither names anything of A's.
    for (const label of [
      await ownLabelPdf(orderOfA.tracking_number),
      await ownLabelPdf(SHARED_NUMBER, 'UPS'),
    ]) {
      const asA = await parseLabel(server.baseUrl, tokenOfA, label, 'application/pdf');
      assert.equal(asA.status, 200, JSON.stringify(asA.body));
      assert.equal(asA.body.matches.length, 1, 'A sees its own order');
      for (const token of [adminOfB(), tokensOfB.employee!, tokensOfB.driver!]) {
        const asB = await parseLabel(server.baseUrl, token, label, 'application/pdf');
        assert.equal(asB.status, 200, JSON.stringify(asB.body));
        assert.deepEqual(asB.body.matches, []);
      }
    }
  },
  create_order_from_label: async () => {
    const ofA = await labelOrderOfA();
    // B's call with A's client_id is B's own creation, never an answer of A's order.
    const created = await api.post(
      '/api/v1/labels/orders',
      {
        order: { dropoff: { line1: '1 B street' } },
        tracking_numbers: [SHARED_NUMBER],
        client_id: 'label-1',
      },
      { token: adminOfB() },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.created, true);
    assert.notEqual(created.body.order.id, ofA);
    assert.equal(created.body.order.dropoff.line1, '1 B street');
    // A's reading of the shared number still finds its own order alone.
    const asA = await parseLabel(
      server.baseUrl,
      tokenOfA,
      await ownLabelPdf(SHARED_NUMBER, 'UPS'),
      'application/pdf',
    );
    assert.deepEqual(
      asA.body.matches.map((match: { id: number }) => match.id),
      [ofA],
    );
  },
  get_label_reading_settings: async () => {
    const saved = await api.call('PUT', '/api/v1/labels/settings', {
      token: tokenOfA,
      body: { keep_label_images_days: 30 },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const asB = await api.get('/api/v1/labels/settings', { token: adminOfB() });
    assert.equal(asB.status, 200, JSON.stringify(asB.body));
    assert.equal(asB.body.keep_label_images_days, 0, "B reads its own settings, never A's");
  },
  set_label_reading_settings: async () => {
    const before = (await api.get('/api/v1/labels/settings', { token: tokenOfA })).body;
    const saved = await api.call('PUT', '/api/v1/labels/settings', {
      token: adminOfB(),
      body: { keep_label_images_days: 365 },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual((await api.get('/api/v1/labels/settings', { token: tokenOfA })).body, before);
  },
};
