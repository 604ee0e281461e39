/**
 * Label images for the label reading tests: the service's own shipping label (its PDF, or that
 * PDF as a PNG), and a client for parse_label's binary body.
 */
import sharp from 'sharp';
import { loadConfig } from '../../src/config.ts';
import { renderPdfPage } from '../../src/modules/ocr/index.ts';
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

/**
 * The service's own 4 × 6 in label of a package, as its shipping module prints it: for the order
 * `orderRef` (the label prints it as `Ref:`), linking to the tracking page of the service at
 * `baseUrl` (the test servers' public address unless given).
 */
export function ownLabelPdf(
  trackingNumber: string,
  carrierName = 'Colis Express',
  { orderRef = `REF-${trackingNumber.slice(-6)}`, baseUrl = loadConfig({}).publicBaseUrl } = {},
): Promise<Buffer> {
  return renderLabelPdf({
    trackingNumber,
    carrierName,
    serviceName: 'Standard',
    sender: SENDER,
    recipient: RECIPIENT,
    billableWeightGrams: 2500,
    packageNumber: 1,
    packageCount: 1,
    orderRef,
    trackingUrl: `${baseUrl}/track/${trackingNumber}`,
    createdAt: new Date('2026-11-02T09:00:00Z'),
  });
}

/** The first page of a PDF as a PNG, at `dpi`, rendered as the reader renders a PDF. */
export async function pdfToPng(pdf: Buffer, dpi = 300): Promise<Buffer> {
  const raster = await renderPdfPage(pdf, dpi);
  return sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } })
    .png()
    .toBuffer();
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
