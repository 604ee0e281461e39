/**
 * Label images for the label reading tests: the service's own shipping label (its PDF, or that
 * PDF as a PNG), and a client for parse_label's binary body.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import type { Address } from '../../src/modules/orders/index.ts';
import { renderLabelPdf } from '../../src/modules/shipping/labels/render.ts';

export const SENDER: Address = {
  name: 'Entrepot Nord',
  line1: '5 Rue des Entrepreneurs',
  postal_code: '93200',
  city: 'Saint-Denis',
  country: 'FR',
};

export const RECIPIENT: Address = {
  name: 'Claire Dubois',
  line1: '18 Avenue Victor Hugo',
  postal_code: '69002',
  city: 'Lyon',
  country: 'FR',
};

/** The service's own 4 × 6 in label of a package, as its shipping module prints it. */
export function ownLabelPdf(trackingNumber: string, carrierName = 'Colis Express'): Promise<Buffer> {
  return renderLabelPdf({
    trackingNumber,
    carrierName,
    serviceName: 'Standard',
    sender: SENDER,
    recipient: RECIPIENT,
    billableWeightGrams: 2500,
    packageNumber: 1,
    packageCount: 1,
    orderRef: `REF-${trackingNumber.slice(-6)}`,
    // Where the service's own labels link: the test servers' public address.
    trackingUrl: `${loadConfig({}).publicBaseUrl}/track/${trackingNumber}`,
    createdAt: new Date('2026-11-02T09:00:00Z'),
  });
}

/** The first page of a PDF as a PNG, at `scale` × 72 dpi (pdfjs-dist with @napi-rs/canvas). */
export async function pdfToPng(pdf: Buffer, scale = 300 / 72): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const fonts = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;
  const document = await pdfjs.getDocument({
    data: new Uint8Array(pdf),
    isEvalSupported: false,
    standardFontDataUrl: fonts,
  }).promise;
  try {
    const page = await document.getPage(1);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    return canvas.toBuffer('image/png');
  } finally {
    await document.destroy();
  }
}

export interface ParseAnswer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are asserted field by field
  body: any;
}

/** POST /api/v1/labels/parse with the image as the body. */
export async function parseLabel(
  baseUrl: string,
  token: string,
  body: Buffer | string,
  type: string,
  lang = 'en',
): Promise<ParseAnswer> {
  const response = await fetch(`${baseUrl}/api/v1/labels/parse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'accept-language': lang },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
