import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { Address } from '../../orders/index.ts';

/** 4 × 6 inches in PDF points (72 per inch). */
export const LABEL_SIZE = { width: 288, height: 432 } as const;
const MARGIN = 12;
const INNER = LABEL_SIZE.width - 2 * MARGIN;
/** The barcode image is laid out at 300 dpi: one pixel of bwip-js's image is 72/300 pt. */
const POINTS_PER_PIXEL = 72 / 300;

export interface LabelContent {
  trackingNumber: string;
  carrierName: string;
  serviceName: string;
  sender: Address;
  recipient: Address;
  billableWeightGrams: number;
  /** 1-based position of the package in its shipment, and the shipment's package count. */
  packageNumber: number;
  packageCount: number;
  orderRef: string;
  /** What the QR code opens: the package's public tracking page. */
  trackingUrl: string;
  /** Printed, and the PDF's creation date, so rendering the same label again gives the same bytes. */
  createdAt: Date;
}

/**
 * A barcode PNG without its alpha channel (bwip-js draws RGBA on the white asked for). pdfkit
 * embeds an image with alpha after an asynchronous inflate, so two of them could land in the PDF
 * in either order and the same label come out as different bytes; an opaque one is embedded at once.
 */
export function opaquePng(png: Buffer): Promise<Buffer> {
  return sharp(png).flatten({ background: '#ffffff' }).png({ adaptiveFiltering: false }).toBuffer();
}

/**
 * Code 128 of the tracking number, 4 px per module (13 mil at 300 dpi, a usual label density),
 * on white. Exported so a check can render exactly what a label embeds.
 */
export function code128Png(text: string): Promise<Buffer> {
  return bwipjs
    .toBuffer({
      bcid: 'code128',
      text,
      scale: 4,
      height: 16,
      // The quiet zone scanners need: 10 modules each side.
      paddingwidth: 10,
      backgroundcolor: 'FFFFFF',
    })
    .then(opaquePng);
}

export function qrPng(text: string): Promise<Buffer> {
  // With its 4-module quiet zone, without which some codes do not scan.
  return bwipjs
    .toBuffer({
      bcid: 'qrcode',
      text,
      scale: 4,
      paddingwidth: 4,
      paddingheight: 4,
      backgroundcolor: 'FFFFFF',
    })
    .then(opaquePng);
}

/**
 * The shipping label: a 4 × 6 in PDF page with carrier and service, sender and recipient,
 * weight, the tracking number as a Code 128 barcode and in print, and a QR code of the tracking
 * page. It shows no price: a label travels with the parcel.
 */
export async function renderLabelPdf(label: LabelContent): Promise<Buffer> {
  const [barcode, qr] = await Promise.all([code128Png(label.trackingNumber), qrPng(label.trackingUrl)]);
  const doc = new PDFDocument({
    size: [LABEL_SIZE.width, LABEL_SIZE.height],
    margin: 0,
    info: {
      Title: `Shipping label ${label.trackingNumber}`,
      Creator: 'TMS',
      Producer: 'TMS',
      CreationDate: label.createdAt,
    },
  });
  const done = collect(doc);
  const text = (value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}) =>
    doc.text(printable(value), x, y, { width: INNER, lineBreak: false, ellipsis: true, ...options });
  const rule = (y: number) =>
    doc
      .moveTo(MARGIN, y)
      .lineTo(LABEL_SIZE.width - MARGIN, y)
      .lineWidth(1)
      .stroke();

  doc.font('Helvetica-Bold').fontSize(16);
  text(label.carrierName, MARGIN, 14);
  doc.fontSize(12);
  text(label.serviceName.toUpperCase(), MARGIN, 17, { align: 'right' });
  rule(36);

  doc.font('Helvetica').fontSize(7);
  text('FROM', MARGIN, 42);
  doc.fontSize(8);
  addressLines(label.sender).forEach((line, i) => {
    text(line, MARGIN, 51 + i * 10);
  });
  rule(100);

  doc.fontSize(7);
  text('SHIP TO', MARGIN, 106);
  doc.font('Helvetica-Bold').fontSize(13);
  addressLines(label.recipient).forEach((line, i) => {
    text(line, MARGIN, 118 + i * 16);
    if (i === 0) doc.font('Helvetica').fontSize(12);
  });
  rule(204);

  doc.font('Helvetica').fontSize(9);
  text(`Weight: ${kilograms(label.billableWeightGrams)} kg`, MARGIN, 211);
  text(`Package ${label.packageNumber} of ${label.packageCount}`, MARGIN, 211, { align: 'right' });
  text(`Ref: ${label.orderRef}`, MARGIN, 224);
  text(label.createdAt.toISOString().slice(0, 10), MARGIN, 224, { align: 'right' });
  rule(240);

  const barcodeSize = imageSize(barcode);
  const barcodeWidth = Math.min(INNER, barcodeSize.width * POINTS_PER_PIXEL);
  const barcodeHeight = (barcodeSize.height * barcodeWidth) / barcodeSize.width;
  doc.image(barcode, (LABEL_SIZE.width - barcodeWidth) / 2, 250, { width: barcodeWidth });
  doc.font('Helvetica-Bold').fontSize(14);
  text(label.trackingNumber, MARGIN, 256 + barcodeHeight, { align: 'center' });
  rule(330);

  const qrSide = 84;
  doc.image(qr, MARGIN, 338, { width: qrSide, height: qrSide });
  doc.font('Helvetica').fontSize(8);
  text('Track this package:', MARGIN + qrSide + 10, 350, { width: INNER - qrSide - 10 });
  doc.fontSize(6);
  doc.text(printable(label.trackingUrl), MARGIN + qrSide + 10, 362, { width: INNER - qrSide - 10 });

  doc.end();
  return done;
}

function addressLines(address: Address): string[] {
  const place = [address.postal_code, address.city].filter(Boolean).join(' ');
  return [address.name, address.line1, address.line2, [place, address.country].filter(Boolean).join(', ')]
    .filter((line): line is string => Boolean(line))
    .slice(0, 5);
}

/** 2500 g -> "2.50": grams to kilograms with two decimals, rounded up (never under-declare). */
function kilograms(grams: number): string {
  const tens = Math.ceil(grams / 10);
  return `${Math.floor(tens / 100)}.${String(tens % 100).padStart(2, '0')}`;
}

/**
 * The standard PDF fonts print Windows-1252 only; other characters become "?" rather than
 * wrong glyphs (a label font covering every script is left for later, see docs/shipping.md).
 */
function printable(value: string): string {
  return value.replace(/[^\x20-\x7E\xA0-\xFF€ŒœŠšŽžŸƒ–—‘’‚“”„†‡•…‰‹›™]/gu, '?');
}

/** Width and height of a PNG, from its IHDR chunk. */
function imageSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}
