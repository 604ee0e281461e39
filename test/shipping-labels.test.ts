import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import { PDFDocument, PDFName, type PDFNumber, PDFRawStream } from 'pdf-lib';
import { PNG } from 'pngjs';
import { code128Png } from '../src/modules/shipping/labels/render.ts';
import { login, PASSWORD } from './support/fixtures.ts';
import {
  address,
  admin,
  api,
  BERCY_AT,
  CITY_PARCEL,
  compare,
  customer,
  employee,
  labelPdf,
  OBERKAMPF,
  quoteAndShip,
  rate,
  saveCarrier,
  server,
  setUpShipping,
  submit,
  TEST_BIKE,
  tenant,
} from './support/shipping.ts';

// ----- reading the PDF back -----

/** Every image of a PDF as luminance (alpha composited over white paper, as a viewer shows it). */
async function imagesOf(pdf: Buffer) {
  const document = await PDFDocument.load(pdf);
  const images: Array<{ width: number; height: number; luminance: Uint8ClampedArray }> = [];
  const number = (stream: PDFRawStream, key: string) =>
    (stream.dict.get(PDFName.of(key)) as PDFNumber).asNumber();
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    // Opaque RGB, embedded as PNG rows: a filter byte (0, none) before each row's pixels.
    assert.equal(object.dict.get(PDFName.of('ColorSpace')), PDFName.of('DeviceRGB'));
    assert.equal(object.dict.get(PDFName.of('SMask')), undefined, 'no alpha expected');
    const width = number(object, 'Width');
    const height = number(object, 'Height');
    const rows = inflateSync(object.contents);
    const luminance = new Uint8ClampedArray(width * height);
    for (let y = 0; y < height; y++) {
      const row = y * (1 + 3 * width);
      assert.equal(rows[row], 0, `row ${y} is stored unfiltered`);
      for (let x = 0; x < width; x++) {
        const at = row + 1 + 3 * x;
        luminance[y * width + x] = (rows[at]! * 299 + rows[at + 1]! * 587 + rows[at + 2]! * 114) / 1000;
      }
    }
    images.push({ width, height, luminance });
  }
  return images;
}

function decode(image: { width: number; height: number; luminance: Uint8ClampedArray }) {
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128, BarcodeFormat.QR_CODE]],
    [DecodeHintType.TRY_HARDER, true],
    // The image is the code alone, as rendered: zxing's finder-pattern search, made for photos,
    // misses about one QR code in fifty of these that other decoders (and phones) read.
    [DecodeHintType.PURE_BARCODE, true],
  ]);
  const source = new RGBLuminanceSource(image.luminance, image.width, image.height);
  const result = new MultiFormatReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints);
  return { format: BarcodeFormat[result.getBarcodeFormat()], text: result.getText() };
}

/** bwip-js's own PNG as luminance over white, to compare with what the PDF holds. */
function luminanceOfPng(png: Buffer): Uint8ClampedArray {
  const image = PNG.sync.read(png);
  const luminance = new Uint8ClampedArray(image.width * image.height);
  for (let i = 0; i < luminance.length; i++) {
    const [r, g, b, a] = image.data.subarray(4 * i, 4 * i + 4);
    const gray = (r! * 299 + g! * 587 + b! * 114) / 1000;
    luminance[i] = 255 - (a! * (255 - gray)) / 255;
  }
  return luminance;
}

describe('shipping and labels', () => {
  before(setUpShipping);
  after(() => server.close());

  describe('choosing a carrier', () => {
    it('compares every carrier cheapest first, marking the cheapest and the fastest', async () => {
      const answer = await compare(CITY_PARCEL);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(
        answer.body.rates.map(
          (r: { carrier: string; service: string; total: number; cheapest: boolean; fastest: boolean }) => [
            `${r.carrier}/${r.service}`,
            r.total,
            r.cheapest,
            r.fastest,
          ],
        ),
        [
          ['testpost/ground', 6.76, true, false],
          ['testbike/sameday', 7.7, false, true],
          ['testpost/express', 12.16, false, false],
        ],
      );
      assert.equal(answer.body.cheapest_rate_id, answer.body.rates[0].rate_id);
      assert.equal(answer.body.fastest_rate_id, answer.body.rates[1].rate_id);
      assert.deepEqual(answer.body.unavailable, []);
    });

    it('quote_and_ship buys the cheapest, the fastest, or the preferred of one carrier', async () => {
      const cases: Array<[object, string]> = [
        [{}, 'testpost/ground'],
        [{ prefer: 'cheapest' }, 'testpost/ground'],
        [{ prefer: 'fastest' }, 'testbike/sameday'],
        [{ prefer: 'fastest', carrier: 'testpost' }, 'testpost/express'],
        [{ carrier: 'testbike' }, 'testbike/sameday'],
      ];
      for (const [preference, expected] of cases) {
        const answer = await quoteAndShip({ ...CITY_PARCEL, ...preference });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(
          `${answer.body.rate.carrier}/${answer.body.rate.service}`,
          expected,
          JSON.stringify(preference),
        );
        assert.equal(answer.body.prefer, 'prefer' in preference ? preference.prefer : 'cheapest');
        assert.equal(answer.body.labels.length, 1);
        assert.equal(answer.body.order.carrier, answer.body.rate.carrier);
      }
      const nowhere = await quoteAndShip({
        ...CITY_PARCEL,
        dropoff: address('69007'),
        packages: [{ weight_grams: 50_000 }],
        carrier: 'testbike',
      });
      assert.equal(nowhere.status, 422);
      assert.equal(nowhere.body.error_code, 'NO_CARRIER_AVAILABLE');
    });
  });

  describe('labels', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the answer of submitOrder
    let submitted: any;

    before(async () => {
      submitted = await submit({
        ...CITY_PARCEL,
        packages: [
          { weight_grams: 800 },
          { weight_grams: 3000, length_mm: 300, width_mm: 200, height_mm: 100, description: 'Books' },
        ],
        carrier: 'testpost',
        service: 'ground',
        order_ref: 'LBL-1',
        customer_id: tenant.userIds.customer,
        note: 'Fragile',
      });
      assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    });

    it('creates a label-service order with its packages, prices and one label per package', async () => {
      const { body } = submitted;
      assert.equal(body.order.family, 'label_service');
      assert.equal(body.order.order_ref, 'LBL-1');
      assert.equal(body.order.carrier, 'testpost');
      assert.equal(body.order.self_delivery, false);
      assert.equal(body.order.customer_id, tenant.userIds.customer);
      assert.equal(body.tracking_number, body.order.packages[0].tracking_number);
      // 800 g: 6.76; 3 kg: 8.00 + 1.00 fuel, tax 1.80 = 10.80.
      assert.deepEqual(
        [body.order.currency, body.order.shipping_price, body.order.surcharges, body.order.tax],
        ['EUR', 13, [{ code: 'fuel', amount: 1.63 }], 2.93],
      );
      assert.equal(body.rate.total, 17.56);
      assert.deepEqual(
        body.labels.map((l: { tracking_number: string; total: number; billable_weight_grams: number }) => [
          l.tracking_number,
          l.total,
          l.billable_weight_grams,
        ]),
        [
          [body.order.packages[0].tracking_number, 6.76, 800],
          [body.order.packages[1].tracking_number, 10.8, 3000],
        ],
      );
      for (const label of body.labels) {
        assert.equal(label.rate_id, body.rate.rate_id);
        assert.match(label.document.sha256, /^[0-9a-f]{64}$/);
        assert.ok(label.pdf_url.endsWith(`/api/v1/labelservice/labels/${label.tracking_number}`));
      }
      // The order reads back with the same prices.
      const detail = await api.get(`/api/v1/client/orders/${body.order_id}`, { token: admin });
      assert.deepEqual(detail.body.order.shipping_price, 13);
    });

    it('serves the label as JSON, and as a 4 x 6 in PDF whose barcode decodes to the tracking number', async () => {
      const [first] = submitted.body.labels;
      const json = await api.get(`/api/v1/labelservice/labels/${first.tracking_number}?include_pdf=true`, {
        token: employee,
      });
      assert.equal(json.status, 200, JSON.stringify(json.body));
      assert.equal(json.body.label.carrier_name, 'Test Post');
      assert.equal(json.body.label.service_name, 'Ground');
      const pdf = await labelPdf(first.tracking_number);
      assert.equal(json.body.label.pdf_base64, pdf.toString('base64'));
      assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.match(pdf.subarray(-32).toString('latin1'), /startxref\s+\d+\s+%%EOF\s*$/);
      assert.equal(createHash('sha256').update(pdf).digest('hex'), first.document.sha256);

      const document = await PDFDocument.load(pdf);
      assert.equal(document.getPageCount(), 1);
      assert.deepEqual(document.getPage(0).getSize(), { width: 288, height: 432 });

      const images = await imagesOf(pdf);
      const decoded = images.map(decode);
      assert.deepEqual(decoded, [
        { format: 'CODE_128', text: first.tracking_number },
        { format: 'QR_CODE', text: `${new URL(first.pdf_url).origin}/track/${first.tracking_number}` },
      ]);
      // And the barcode in the PDF is, pixel for pixel, bwip-js's Code 128 of the tracking number.
      const barcode = images[0]!;
      assert.deepEqual(barcode.luminance, luminanceOfPng(await code128Png(first.tracking_number)));
    });

    it('records the PDF as an issued document and adds information_submitted to each timeline', async () => {
      for (const label of submitted.body.labels) {
        const timeline = await api.get(`/api/v1/otep/trackings/${label.tracking_number}`);
        assert.equal(timeline.status, 200);
        const events = timeline.body.data.events;
        assert.deepEqual(
          events.map((e: { status_code: string; source: object }) => [e.status_code, e.source]),
          [['information_submitted', { type: 'carrier', name: 'Test Post' }]],
        );
        const issued = await server.db
          .selectFrom('documents')
          .select(['id', 'sha256', 'kind', 'reference'])
          .where('reference', '=', label.tracking_number)
          .executeTakeFirst();
        assert.deepEqual(issued, {
          id: Number(label.document.id),
          sha256: label.document.sha256,
          kind: 'label',
          reference: label.tracking_number,
        });
      }
    });

    it('buys at a quoted rate_id, and refuses one the card has changed since', async () => {
      const quoted = (await rate({ ...CITY_PARCEL, carrier: 'testbike' })).body.rates[0];
      const bought = await submit({
        ...CITY_PARCEL,
        carrier: 'testbike',
        service: 'sameday',
        rate_id: quoted.rate_id,
      });
      assert.equal(bought.status, 200, JSON.stringify(bought.body));
      assert.equal(bought.body.labels[0].total, quoted.total);

      assert.equal((await saveCarrier('testbike', TEST_BIKE)).body.carrier.version, 2);
      const stale = await submit({
        ...CITY_PARCEL,
        carrier: 'testbike',
        service: 'sameday',
        rate_id: quoted.rate_id,
      });
      assert.equal(stale.status, 409);
      assert.equal(stale.body.error_code, 'RATE_CHANGED');
      assert.notEqual(stale.body.details.rate.rate_id, quoted.rate_id);
      assert.equal(stale.body.details.rate.total, quoted.total);
    });

    it('lets a customer rate and ship for itself, and hides label prices when the business says so', async () => {
      const own = await submit(
        { ...CITY_PARCEL, carrier: 'testpost', service: 'ground', customer_id: 999_999 },
        customer,
      );
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(own.body.order.customer_id, tenant.userIds.customer);
      assert.equal(
        (await api.get(`/api/v1/labelservice/labels/${own.body.tracking_number}`, { token: customer }))
          .status,
        200,
      );

      // Another customer of the business does not see it.
      await server.app.services.accounts.createUser(server.db, {
        kind: 'customer',
        email: 'other-customer@ship.test',
        name: 'Other customer',
        password: PASSWORD,
        businessId: tenant.businessId,
        contractorCompanyId: null,
      });
      const other = await login(api, 'other-customer@ship.test');
      const refused = await api.get(`/api/v1/labelservice/labels/${own.body.tracking_number}`, {
        token: other,
      });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error_code, 'LABEL_NOT_FOUND');

      const hide = await api.call(
        'PUT',
        `/api/v1/client/customers/${tenant.userIds.customer}/price-visibility`,
        {
          token: admin,
          body: { hidden: { label_service: true } },
        },
      );
      assert.equal(hide.status, 200, JSON.stringify(hide.body));
      const hidden = await compare(CITY_PARCEL, customer);
      assert.equal(hidden.body.price_hidden, true);
      const [first] = hidden.body.rates;
      assert.deepEqual(
        [first.carrier, first.service, first.cheapest, typeof first.rate_id],
        ['testpost', 'ground', true, 'string'],
      );
      for (const field of ['price', 'tax', 'total', 'currency']) assert.equal(first[field], undefined, field);
      assert.deepEqual(first.surcharges, [{ code: 'fuel' }]);
      const label = await api.get(`/api/v1/labelservice/labels/${own.body.tracking_number}`, {
        token: customer,
      });
      assert.equal(label.body.label.total, undefined);
      assert.equal((await compare(CITY_PARCEL, employee)).body.rates[0].total, 6.76);
    });

    it('answers the labelservice operations over GraphQL too', async () => {
      const graphql = async (query: string, variables: object) => {
        const response = await fetch(`${server.baseUrl}/api/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${employee}` },
          body: JSON.stringify({ query, variables }),
        });
        return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
      };
      const packages = [{ weight_grams: 800 }];
      const quoted = await graphql(
        `query ($pickup: AddressInput!, $dropoff: AddressInput!, $packages: [ShipmentPackageInput!]!) {
          labelserviceRate(pickup: $pickup, dropoff: $dropoff, packages: $packages, carrier: "testpost", service: "ground") {
            rates { rate_id total surcharges { code amount } }
          }
        }`,
        { pickup: BERCY_AT, dropoff: OBERKAMPF, packages },
      );
      assert.equal(quoted.errors, undefined, JSON.stringify(quoted.errors));
      const [quote] = (quoted.data!.labelserviceRate as { rates: Array<{ rate_id: string; total: number }> })
        .rates;
      assert.equal(quote!.total, 6.76);
      const bought = await graphql(
        `mutation ($pickup: AddressInput!, $dropoff: AddressInput!, $packages: [ShipmentPackageInput!]!, $rate: String) {
          labelserviceSubmitOrder(pickup: $pickup, dropoff: $dropoff, packages: $packages, carrier: "testpost", service: "ground", rate_id: $rate) {
            tracking_number labels { tracking_number total document { sha256 } }
          }
        }`,
        { pickup: BERCY_AT, dropoff: OBERKAMPF, packages, rate: quote!.rate_id },
      );
      assert.equal(bought.errors, undefined, JSON.stringify(bought.errors));
      const order = bought.data!.labelserviceSubmitOrder as {
        tracking_number: string;
        labels: Array<{ total: number }>;
      };
      assert.equal(order.labels[0]!.total, 6.76);
      const label = await graphql(
        'query ($n: String!) { shippingLabel(tracking_number: $n) { label { service_name } } }',
        {
          n: order.tracking_number,
        },
      );
      assert.deepEqual(label.data, { shippingLabel: { label: { service_name: 'Ground' } } });
    });
  });
});
