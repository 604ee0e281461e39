/**
 * The labels as PDFs: the service's own renderer for its labels, and 4 × 6 in layouts of other
 * carriers drawn with pdfkit and bwip-js, each with its carrier's symbologies and headings.
 */
import bwipjs from 'bwip-js';
import PDFDocument from 'pdfkit';
import { opaquePng, renderLabelPdf } from '../../src/modules/shipping/labels/render.ts';
import { COUNTRY_NAMES, placeLines, type TruthAddress } from './addresses.ts';
import type { LabelTruth, Layout } from './truth.ts';

const WIDTH = 288;
const HEIGHT = 432;
const MARGIN = 12;
const INNER = WIDTH - 2 * MARGIN;
/** Barcode images are made for 300 dpi: one image pixel is 72/300 pt. */
const PT = 72 / 300;

/** Where the service's own labels link their QR code, as the service is configured (`{base}/track/{number}`). */
export const TRACKING_BASE_URL = 'https://track.example.com';

export function labelPdf(truth: LabelTruth): Promise<Buffer> {
  return truth.layout === 'tms' ? tmsPdf(truth) : carrierPdf(truth);
}

function tmsPdf(truth: LabelTruth): Promise<Buffer> {
  const address = (a: TruthAddress) => ({
    name: a.name,
    line1: a.street[0]!,
    line2: a.street[1],
    postal_code: a.postal_code,
    city: a.city,
    country: a.country,
  });
  return renderLabelPdf({
    trackingNumber: truth.tracking_number,
    carrierName: truth.print.carrierName,
    serviceName: truth.service_level,
    sender: address(truth.sender),
    recipient: address(truth.recipient),
    billableWeightGrams: truth.weight.grams,
    packageNumber: truth.print.packageNumber,
    packageCount: truth.print.packageCount,
    orderRef: truth.reference,
    trackingUrl: `${TRACKING_BASE_URL}/track/${truth.tracking_number}`,
    createdAt: new Date(`${truth.print.date}T09:30:00Z`),
  });
}

interface Style {
  brand: string;
  /** Headings over the sender and the recipient ('' prints none). */
  from: string;
  to: string;
  upper: boolean;
  /** The printed tracking number, grouped as the carrier prints it. */
  human: (n: string) => string;
  referenceLabel: string;
  weightLabel: string;
  /** Service level in a black box (white letters) rather than plain. */
  invertedService: boolean;
}

const group = (n: string, sizes: number[]) => {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) {
    parts.push(n.slice(at, at + size));
    at += size;
  }
  if (at < n.length) parts.push(n.slice(at));
  return parts.filter(Boolean).join(' ');
};

const STYLES: Record<Exclude<Layout, 'tms'>, Style> = {
  ups: {
    brand: 'UPS',
    from: '',
    to: 'SHIP TO:',
    upper: true,
    human: (n) => `TRACKING #: ${group(n, [2, 3, 3, 2, 4, 4])}`,
    referenceLabel: 'Reference No.1:',
    weightLabel: '',
    invertedService: false,
  },
  fedex: {
    brand: 'FedEx Express',
    from: 'ORIGIN',
    to: 'TO',
    upper: true,
    human: (n) => `TRK# ${group(n, [4, 4, 4])}`,
    referenceLabel: 'REF:',
    weightLabel: 'ACTWGT:',
    invertedService: true,
  },
  usps: {
    brand: 'USPS',
    from: '',
    to: 'SHIP TO:',
    upper: true,
    human: (n) => `USPS TRACKING # ${group(n, [4, 4, 4, 4, 4, 2])}`,
    referenceLabel: 'Order #',
    weightLabel: 'Wt:',
    invertedService: true,
  },
  dhl_express: {
    brand: 'DHL EXPRESS',
    from: 'From :',
    to: 'To :',
    upper: false,
    human: (n) => `WAYBILL ${group(n, [2, 4, 4])}`,
    referenceLabel: 'Ref:',
    weightLabel: 'Weight:',
    invertedService: true,
  },
  canada_post: {
    brand: 'CANADA POST / POSTES CANADA',
    from: 'FROM / DE',
    to: 'TO / À',
    upper: true,
    human: (n) => group(n, [2, 3, 3, 3, 2]),
    referenceLabel: 'REF:',
    weightLabel: 'Weight / Poids:',
    invertedService: false,
  },
  royal_mail: {
    brand: 'Royal Mail',
    from: 'SENDER',
    to: 'DELIVER TO',
    upper: true,
    human: (n) => group(n, [2, 4, 4, 3]),
    referenceLabel: 'Your ref:',
    weightLabel: 'Weight:',
    invertedService: true,
  },
  la_poste: {
    brand: 'Colissimo - La Poste',
    from: 'EXPÉDITEUR',
    to: 'DESTINATAIRE',
    upper: true,
    human: (n) => group(n, [2, 9, 2]),
    referenceLabel: 'Référence :',
    weightLabel: 'Poids :',
    invertedService: false,
  },
  gs1_sscc: {
    brand: 'PALLET LABEL',
    from: 'FROM',
    to: 'SHIP TO',
    upper: true,
    human: (n) => `SSCC ${n}`,
    referenceLabel: 'PO Number:',
    weightLabel: 'Gross weight:',
    invertedService: false,
  },
};

type BarcodeOptions = Parameters<typeof bwipjs.toBuffer>[0];
// Options of single symbologies (MaxiCode's mode, PDF417's columns) are not in bwip-js's types.
const png = (options: Partial<BarcodeOptions> & Record<string, unknown>) =>
  bwipjs.toBuffer({ backgroundcolor: 'FFFFFF', ...options } as BarcodeOptions).then(opaquePng);

/** The 1D code carrying the tracking number, and the carrier's other symbols, as PNGs. */
async function symbols(
  truth: LabelTruth,
): Promise<{ main: Buffer; second: Buffer | null; secondSide: number }> {
  const n = truth.tracking_number;
  const zip = truth.recipient.postal_code.replace(/\s/g, '');
  const code128 = (text: string) => png({ bcid: 'code128', text, scale: 4, height: 18, paddingwidth: 10 });
  switch (truth.layout) {
    case 'ups': {
      const us = truth.recipient.country === 'US';
      const text = `[)>^03001^029${us ? '96' : ''}${us ? zip : zip.padEnd(6, ' ').slice(0, 6)}^029${us ? '840' : '826'}^029003^029${n.slice(0, 10)}^029UPSN^029${n.slice(2, 8)}^029001^029${n}^0291/1^029${Math.round(truth.weight.value)}^029Y^029^029${truth.recipient.city.toUpperCase()}^029^030^004`;
      const maxi = await png({ bcid: 'maxicode', text, parse: true, mode: us ? 2 : 3, scale: 4 }).catch(() =>
        png({ bcid: 'maxicode', text: n, scale: 4 }),
      );
      return { main: await code128(n), second: maxi, secondSide: 86 };
    }
    case 'fedex':
      return {
        main: await code128(n),
        second: await png({
          bcid: 'pdf417',
          text: `[)>01${n}FDEB${zip}${truth.recipient.country}${truth.weight.value}LB`,
          scale: 2,
          rowmult: 4,
          columns: 5,
          paddingwidth: 4,
          paddingheight: 4,
        }),
        secondSide: 150,
      };
    case 'usps':
      return {
        main: await png({
          bcid: 'gs1-128',
          text: `(420)${zip}(${n.slice(0, 2)})${n.slice(2)}`,
          scale: 4,
          height: 20,
          paddingwidth: 10,
        }),
        second: null,
        secondSide: 0,
      };
    case 'royal_mail':
      return {
        main: await code128(n),
        second: await png({
          bcid: 'datamatrix',
          text: `JGB 6200${n}${zip.padEnd(7, ' ')}${truth.print.date.replaceAll('-', '')}`,
          scale: 5,
          paddingwidth: 4,
          paddingheight: 4,
        }),
        secondSide: 70,
      };
    case 'gs1_sscc':
      return {
        main: await png({ bcid: 'gs1-128', text: `(00)${n}`, scale: 4, height: 22, paddingwidth: 10 }),
        second: await png({
          bcid: 'gs1-128',
          text: `(02)${truth.other_numbers[0]}(37)${truth.print.pieces}`,
          scale: 3,
          height: 14,
          paddingwidth: 10,
        }),
        secondSide: 0,
      };
    default:
      return { main: await code128(n), second: null, secondSide: 0 };
  }
}

function addressLines(address: TruthAddress, upper: boolean, withCountry: boolean): string[] {
  const lines = [address.name, ...address.street, ...placeLines(address)];
  if (withCountry) lines.push(COUNTRY_NAMES[address.country].toUpperCase());
  return upper ? lines.map((line) => line.toUpperCase()) : lines;
}

function printedWeight(truth: LabelTruth): string {
  const { value, unit } = truth.weight;
  return unit === 'lb' ? `${value} LBS` : `${value.toFixed(truth.layout === 'gs1_sscc' ? 0 : 2)} kg`;
}

async function carrierPdf(truth: LabelTruth): Promise<Buffer> {
  const layout = truth.layout as Exclude<Layout, 'tms'>;
  const style = STYLES[layout];
  const { main, second, secondSide } = await symbols(truth);
  const doc = new PDFDocument({
    size: [WIDTH, HEIGHT],
    margin: 0,
    info: { Title: truth.tracking_number, CreationDate: new Date(`${truth.print.date}T09:30:00Z`) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const text = (value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}) =>
    doc.text(value, x, y, { width: INNER, lineBreak: false, ...options });
  const rule = (y: number, width = 1.5) =>
    doc
      .moveTo(MARGIN, y)
      .lineTo(WIDTH - MARGIN, y)
      .lineWidth(width)
      .stroke();
  doc
    .rect(4, 4, WIDTH - 8, HEIGHT - 8)
    .lineWidth(1.5)
    .stroke();

  // Header: the carrier, and the service level plain or in a black box.
  doc.font('Helvetica-Bold').fontSize(layout === 'canada_post' || layout === 'la_poste' ? 13 : 20);
  text(style.brand, MARGIN, 12);
  doc.fontSize(11);
  const service = truth.service_level.toUpperCase();
  if (style.invertedService) {
    const boxWidth = Math.min(INNER, doc.widthOfString(service) + 16);
    doc.rect(WIDTH - MARGIN - boxWidth, 34, boxWidth, 18).fill('black');
    doc.fillColor('white');
    // Room to spare: text given exactly its own width wraps, and its second line is lost.
    text(service, WIDTH - MARGIN - boxWidth + 6, 38, { width: boxWidth - 8 });
    doc.fillColor('black');
  } else {
    text(service, MARGIN, 38, { align: 'right' });
  }
  rule(56);

  // Sender, small; recipient, large.
  let y = 60;
  doc.font('Helvetica').fontSize(7);
  if (style.from) {
    text(style.from, MARGIN, y);
    y += 9;
  }
  doc.fontSize(8);
  const domestic = truth.sender.country === truth.recipient.country;
  for (const line of addressLines(truth.sender, style.upper, true)) {
    text(line, MARGIN, y);
    y += 10;
  }
  y += 4;
  rule(y, 1);
  y += 5;
  doc.font('Helvetica-Bold').fontSize(8);
  if (style.to) text(style.to, MARGIN, y);
  y += 11;
  const recipientLines = addressLines(truth.recipient, style.upper, !(layout === 'usps' && domestic));
  doc.fontSize(12);
  recipientLines.forEach((line, i) => {
    text(line, MARGIN + 8, y, { width: INNER - 8 });
    if (i === 0) doc.font('Helvetica').fontSize(11);
    y += 15;
  });
  y += 4;
  rule(y);

  // Weight, dimensions, reference, date; the carrier's 2D symbol beside them.
  y += 6;
  const side = second && secondSide > 0 ? secondSide : 0;
  const infoWidth = INNER - (side ? side + 8 : 0);
  doc.font('Helvetica').fontSize(9);
  const info = [
    `${style.weightLabel ? `${style.weightLabel} ` : ''}${printedWeight(truth)}`,
    truth.dimensions
      ? `Dims: ${truth.dimensions.length} x ${truth.dimensions.width} x ${truth.dimensions.height} ${truth.dimensions.unit}`
      : null,
    `${style.referenceLabel} ${truth.reference}`,
    `${truth.print.date}   PKG ${truth.print.packageNumber}/${truth.print.packageCount}`,
    layout === 'gs1_sscc' ? `Pieces: ${truth.print.pieces}` : null,
  ].filter((line): line is string => line !== null);
  const infoTop = y;
  for (const line of info) {
    text(line, MARGIN, y, { width: infoWidth });
    y += 12;
  }
  if (side && second) {
    const secondHeight = (second.readUInt32BE(20) * side) / second.readUInt32BE(16);
    doc.image(second, WIDTH - MARGIN - side, infoTop, { width: side });
    y = Math.max(y, infoTop + secondHeight);
  }
  y += 4;
  rule(y);

  // The tracking number's barcode at its 300 dpi size (narrowed only if it would not fit), then in print.
  y += 8;
  const mainWidth = Math.min(INNER, main.readUInt32BE(16) * PT);
  const mainHeight = (main.readUInt32BE(20) * mainWidth) / main.readUInt32BE(16);
  doc.image(main, (WIDTH - mainWidth) / 2, y, { width: mainWidth });
  y += mainHeight + 4;
  doc.font('Helvetica-Bold').fontSize(11);
  text(
    layout === 'usps' ? style.human(truth.tracking_number) : style.human(truth.tracking_number),
    MARGIN,
    y,
    {
      align: 'center',
    },
  );
  y += 16;
  if (second && !side) {
    const secondWidth = Math.min(INNER, second.readUInt32BE(16) * PT);
    doc.image(second, (WIDTH - secondWidth) / 2, y + 2, { width: secondWidth });
    y += (second.readUInt32BE(20) * secondWidth) / second.readUInt32BE(16) + 4;
    doc.font('Helvetica').fontSize(8);
    text(`(02) ${truth.other_numbers[0]} (37) ${truth.print.pieces}`, MARGIN, y, { align: 'center' });
  }
  doc.end();
  return done;
}
