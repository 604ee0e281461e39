/**
 * What reading a label finds: plain data, so a reading crosses threads by structured clone and
 * is kept as JSON. Coordinates are pixels of the image as sent (of a PDF page: at 300 dpi).
 */

/** A rectangle of the image: where a field's text or barcode was seen. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A field the reader found: its value, how sure it is (0 to 1), and where it came from. */
export interface Found<T> {
  value: T;
  /** 1 for a barcode whose check digits hold; the recogniser's confidence for printed text. */
  confidence: number;
  region: Region | null;
  source: 'barcode' | 'text';
}

/** A tracking number whose format (and check digit, where the format has one) holds. */
export interface TrackingNumber {
  /** Normalised: upper case, no spaces. */
  number: string;
  /** The carrier's code (numbers/carriers.ts): ups, fedex, usps, dhl_express, ... */
  carrier: string;
  /** The format within the carrier: ups_1z, fedex_12, usps_impb, upu_s10, gs1_sscc, ... */
  format: string;
}

export interface LabelAddress {
  /** The address as printed, one entry a line, top to bottom (name first). */
  lines: string[];
  name: string | null;
  /** Street lines: the printed lines less the name and the postal code / city line. */
  street: string[];
  postal_code: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
}

export interface Weight {
  value: number;
  unit: 'kg' | 'g' | 'lb' | 'oz';
  grams: number;
}

export interface Dimensions {
  length: number;
  width: number;
  height: number;
  unit: 'cm' | 'mm' | 'in';
}

export interface DecodedBarcode {
  /** ZXing's name of the symbology: Code128, DataMatrix, QRCode, PDF417, MaxiCode, ... */
  format: string;
  text: string;
  region: Region;
}

export interface LabelFields {
  tracking_numbers: Found<TrackingNumber>[];
  carrier: Found<string> | null;
  sender: Found<LabelAddress> | null;
  recipient: Found<LabelAddress> | null;
  references: Found<string>[];
  weight: Found<Weight> | null;
  dimensions: Found<Dimensions> | null;
  service_level: Found<string> | null;
}

export interface LabelReading {
  /** The size of the image read (a PDF page: rendered at 300 dpi). */
  width: number;
  height: number;
  fields: LabelFields;
  barcodes: DecodedBarcode[];
  /** The recognised text, line by line. */
  text: string;
}
