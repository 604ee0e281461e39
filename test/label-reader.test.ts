import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { completeTrackingNumber, LabelReader, MAX_LABEL_BYTES } from '../src/modules/ocr/index.ts';
import { renderLabelPdf } from '../src/modules/shipping/labels/render.ts';
import { AppError } from '../src/platform/errors.ts';
import { ownLabelPdf, pdfToPng } from './support/ocr.ts';
import { runInProcess } from './support/process.ts';

const TRACKING_URL = 'https://tms.example/track';

/** A label of the service's own renderer: a UPS number, a French sender, an American recipient. */
function label(trackingNumber: string): Promise<Buffer> {
  return renderLabelPdf({
    trackingNumber,
    carrierName: 'UPS',
    serviceName: 'Ground',
    sender: {
      name: 'Acme Parts',
      line1: '12 Rue de Rivoli',
      postal_code: '75001',
      city: 'Paris',
      country: 'FR',
    },
    recipient: {
      name: 'Jane Smith',
      line1: '500 Main Street',
      line2: 'Apt 4B',
      postal_code: '10001',
      city: 'New York',
      country: 'US',
    },
    billableWeightGrams: 2345,
    packageNumber: 1,
    packageCount: 1,
    orderRef: 'ORD-10042',
    trackingUrl: `${TRACKING_URL}/${trackingNumber}`,
    createdAt: new Date('2026-11-27T00:00:00Z'),
  } as never);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => assert.fail('the read was not refused'),
    (reason: unknown) => reason,
  );
  assert.ok(error instanceof AppError, String(error));
  return error;
}

describe('the label reader', () => {
  const reader = new LabelReader({ threads: 1, ownTrackingUrl: TRACKING_URL });
  const ups = completeTrackingNumber('ups_1z', '1Z999AA1012345678');
  let pdf: Buffer;

  before(async () => {
    pdf = await label(ups);
  });
  after(() => reader.close());

  it('reads the PDF the service prints: the number from its barcode, the carrier, both addresses', async () => {
    const reading = await reader.read(pdf, 'application/pdf');
    assert.equal(reading.width, 1200);
    assert.deepEqual(
      reading.fields.tracking_numbers.map((found) => [found.value.number, found.value.carrier, found.source]),
      [[ups, 'ups', 'barcode']],
    );
    assert.equal(reading.fields.carrier?.value, 'ups');
    assert.equal(reading.fields.recipient?.value.postal_code, '10001');
    assert.equal(reading.fields.recipient?.value.city, 'New York');
    assert.equal(reading.fields.sender?.value.postal_code, '75001');
    assert.equal(reading.fields.weight?.value.grams, 2350);
    assert.equal(reading.fields.references[0]?.value, 'ORD-10042');
    assert.ok(reading.barcodes.some((barcode) => barcode.format === 'QRCode'));
  });

  it('reads a turned, blurred JPEG of the same label', async () => {
    // The label as a phone sees it: turned, blurred and squeezed.
    const photo = await sharp(await pdfToPng(pdf))
      .rotate(7, { background: '#ffffff' })
      .blur(1.2)
      .jpeg({ quality: 40 })
      .toBuffer();
    const reading = await reader.read(photo, 'image/jpeg');
    assert.equal(reading.fields.tracking_numbers[0]?.value.number, ups);
    assert.equal(reading.fields.recipient?.value.postal_code, '10001');
  });

  it('refuses what it cannot read, each in its own words', async () => {
    assert.equal(
      (await refusal(reader.read(Buffer.from('hello'), 'text/plain'))).code,
      'UNSUPPORTED_LABEL_TYPE',
    );
    assert.equal(
      (await refusal(reader.read(Buffer.from('not an image'), 'image/png'))).code,
      'LABEL_NOT_READABLE',
    );
    assert.equal(
      (await refusal(reader.read(Buffer.from('%PDF-1.4 torn'), 'application/pdf'))).code,
      'LABEL_NOT_READABLE',
    );
    // A PNG declared as a JPEG is not what it says.
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const mismatch = await refusal(reader.read(png, 'image/jpeg'));
    assert.equal(mismatch.code, 'LABEL_NOT_READABLE');
    assert.deepEqual(mismatch.options.details, { type: 'image/jpeg' });
    const wide = await sharp({ create: { width: 9000, height: 10, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const tooWide = await refusal(reader.read(wide, 'image/png'));
    assert.equal(tooWide.code, 'LABEL_IMAGE_TOO_LARGE');
    assert.deepEqual(tooWide.options.details, {
      width: 9000,
      height: 10,
      max_side: 8000,
      max_megapixels: 40,
    });
    const large = await refusal(reader.read(Buffer.alloc(MAX_LABEL_BYTES + 1), 'image/png'));
    assert.equal(large.code, 'PAYLOAD_TOO_LARGE');
  });

  it('refuses at once when every thread is busy and the queue is full, saying when to come back', async () => {
    const busyReader = new LabelReader({ threads: 1, queueLimit: 0 });
    try {
      const first = busyReader.read(pdf, 'application/pdf');
      // A PDF's header check takes no I/O: after one turn of the loop the first read holds the thread.
      await new Promise((resolve) => setImmediate(resolve));
      const refused = await refusal(busyReader.read(pdf, 'application/pdf'));
      assert.equal(refused.code, 'LABEL_READER_BUSY');
      assert.equal(refused.options.headers?.['Retry-After'], '2');
      assert.equal((await first).fields.tracking_numbers[0]?.value.number, ups);
    } finally {
      await busyReader.close();
    }
  });
});

describe('tms label read', () => {
  it('prints one answer a file on stdout, progress on stderr, and fails for a file it cannot read', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'tms-labels-'));
    try {
      const number = completeTrackingNumber('ups_1z', '1Z999AA1012345678');
      const file = path.join(directory, 'label.pdf');
      await writeFile(file, await label(number));
      const missing = path.join(directory, 'missing.png');
      const { code, stdout, stderr } = await runInProcess(['label', 'read', file, missing], {});
      const answers = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        answers.map((answer) => [
          answer.file,
          answer.fields.tracking_numbers[0].value.number,
          'text' in answer,
        ]),
        [[file, number, false]],
      );
      assert.match(stderr, /\[1\/2\] .*label\.pdf: read in \d+\.\d s/);
      assert.match(stderr, /\[2\/2\] .*missing\.png: not read \(ENOENT/);
      assert.match(stderr, /1 of 2 labels not read/);
      assert.equal(code, 1);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it("reads the service's own label as parse_label does: its tracking number and carrier tms", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'tms-labels-'));
    try {
      const number = 'TMS7K2Q9X4M1';
      const file = path.join(directory, 'own.pdf');
      // Printed by the service at https://tms.example: its QR code links to /track/TMS7K2Q9X4M1 there.
      await writeFile(file, await ownLabelPdf(number, 'Colis Express', { baseUrl: 'https://tms.example' }));
      const read = async (publicBaseUrl: string) => {
        const { code, stdout, stderr } = await runInProcess(['label', 'read', file], {
          PUBLIC_BASE_URL: publicBaseUrl,
        });
        assert.equal(code, 0, stderr);
        return { answer: JSON.parse(stdout), stderr };
      };
      const { answer, stderr } = await read('https://tms.example');
      assert.match(stderr, /Reading as the service at https:\/\/tms\.example \(PUBLIC_BASE_URL\)/);
      assert.deepEqual(
        answer.fields.tracking_numbers.map((found: { value: { number: string; carrier: string } }) => [
          found.value.number,
          found.value.carrier,
        ]),
        [[number, 'tms']],
      );
      assert.equal(answer.fields.carrier.value, 'tms');
      assert.ok(answer.barcodes.some((barcode: { text: string }) => barcode.text === number));
      // Another service's label: its barcode is read, but the number is no one's tracking number.
      const elsewhere = await read('https://other.example');
      assert.deepEqual(elsewhere.answer.fields.tracking_numbers, []);
      assert.ok(elsewhere.answer.barcodes.some((barcode: { text: string }) => barcode.text === number));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
