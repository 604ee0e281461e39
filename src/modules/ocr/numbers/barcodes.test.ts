import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gs1Weight, parseGs1, trackingNumbersFromBarcode } from './tracking-numbers.ts';

const GS = '\u001d';
const RS = '\u001e';
const EOT = '\u0004';
const numbers = (format: string, text: string) =>
  trackingNumbersFromBarcode(format, text).map((m) => m.number);

describe('barcode payloads', () => {
  test('a plain Code 128 number', () => {
    assert.deepEqual(trackingNumbersFromBarcode('Code128', '1Z999AA10123456784'), [
      { number: '1Z999AA10123456784', carrier: 'ups', format: 'ups_1z' },
    ]);
    assert.deepEqual(trackingNumbersFromBarcode('Code128', '1Z999AA10123456785'), []);
  });

  test('USPS: the 420 + ZIP routing prefix is stripped, joined or after a separator', () => {
    assert.deepEqual(numbers('Code128', '420221539101026837331000039521'), ['9101026837331000039521']);
    assert.deepEqual(numbers('Code128', '4201002334249200190132607600833457'), ['9200190132607600833457']);
    assert.deepEqual(numbers('Code128', `]C142022153${GS}9101026837331000039521`), [
      '9101026837331000039521',
    ]);
    assert.deepEqual(numbers('Code128', `]C142022153${GS}9101026837331000039522`), []);
  });

  test('the FedEx 34-digit payload gives the Express number in its last 12 digits', () => {
    assert.deepEqual(trackingNumbersFromBarcode('Code128', '1001921334250001000300779017972697'), [
      { number: '779017972697', carrier: 'fedex', format: 'fedex_12' },
    ]);
    assert.deepEqual(numbers('Code128', '9622001560001234567100794808390594'), ['794808390594']);
    assert.deepEqual(numbers('Code128', '1001901781990001000300617767839438'), []);
  });

  test('GS1-128: the SSCC under AI 00, with the symbology identifier or printed form', () => {
    const sscc = { number: '000123450000000027', carrier: 'unknown', format: 'gs1_sscc' };
    assert.deepEqual(trackingNumbersFromBarcode('Code128', ']C100000123450000000027'), [sscc]);
    assert.deepEqual(trackingNumbersFromBarcode('Code128', `]C1000001234500000000273301000125420${GS}`), [
      sscc,
    ]);
    assert.deepEqual(trackingNumbersFromBarcode('Code128', '(00)000123450000000027(420)75001'), [sscc]);
    assert.deepEqual(trackingNumbersFromBarcode('Code128', ']C100000123450000000028'), []);
  });

  test('UPS MaxiCode: the 1Z number inside the structured carrier message', () => {
    const payload = `[)>${RS}01${GS}96841706672${GS}840${GS}001${GS}1Z999AA10123456784${GS}UPSN${GS}999AA1${GS}028${GS}${GS}1/1${GS}10.1${GS}Y${GS}${GS}${GS}UT${RS}${EOT}`;
    assert.deepEqual(trackingNumbersFromBarcode('MaxiCode', payload), [
      { number: '1Z999AA10123456784', carrier: 'ups', format: 'ups_1z' },
    ]);
    assert.deepEqual(trackingNumbersFromBarcode('MaxiCode', payload.replace('6784', '6785')), []);
  });

  test('a tracking link in a QR code: query values and path segments', () => {
    assert.deepEqual(numbers('QRCode', 'https://www.ups.com/track?loc=en_US&tracknum=1Z999AA10123456784'), [
      '1Z999AA10123456784',
    ]);
    assert.deepEqual(
      numbers('QRCode', 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111201080805483016'),
      ['9400111201080805483016'],
    );
    assert.deepEqual(
      numbers('QRCode', 'https://www.royalmail.com/track-your-item#/tracking-results/RR123456785GB'),
      ['RR123456785GB'],
    );
    assert.deepEqual(numbers('QRCode', 'https://example.com/t/RR123456785GB'), ['RR123456785GB']);
    assert.deepEqual(numbers('QRCode', 'https://example.com/t/RR123456786GB'), []);
  });

  test('text in a 2D code is searched like printed text', () => {
    assert.deepEqual(numbers('DataMatrix', 'Colis RR 123 456 785 GB poids 1,2 kg'), ['RR123456785GB']);
  });

  test('product symbologies carry no tracking number', () => {
    assert.deepEqual(numbers('EAN-13', '000123450000000027'), []);
  });
});

describe('GS1 application identifiers', () => {
  test('fixed and variable fields, with separators and the ]C1 identifier', () => {
    const payload = `]C1000001234500000000273301000125420750${GS}421250750010${GS}40112345ABC${GS}8018123456789012345675`;
    assert.deepEqual(Object.fromEntries(parseGs1(payload)), {
      '00': '000123450000000027',
      '3301': '000125',
      '420': '750',
      '421': '250750010',
      '401': '12345ABC',
      '8018': '123456789012345675',
    });
  });

  test('the printed form with parentheses', () => {
    const fields = parseGs1('(00)000123450000000027(3401)000250(420)90210(401)ABC-123');
    assert.deepEqual(Object.fromEntries(fields), {
      '00': '000123450000000027',
      '3401': '000250',
      '420': '90210',
      '401': 'ABC-123',
    });
    assert.deepEqual(gs1Weight(fields), { value: 25, unit: 'lb' });
  });

  test('weights: the AI digit gives the decimals, gross before net', () => {
    assert.deepEqual(gs1Weight(parseGs1('(3102)001250(3303)012345')), { value: 12.345, unit: 'kg' });
    assert.deepEqual(gs1Weight(parseGs1('(3101)000125')), { value: 12.5, unit: 'kg' });
    assert.equal(gs1Weight(parseGs1('(00)000123450000000027')), null);
  });

  test('parsing stops at an unknown AI and keeps what came before', () => {
    assert.deepEqual(Object.fromEntries(parseGs1(`]C1420${'75001'}${GS}05999`)), { '420': '75001' });
  });
});
