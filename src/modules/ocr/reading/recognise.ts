import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker as TesseractWorker } from 'tesseract.js';
import type { Raster } from './image.ts';
import { invertDarkBoxes } from './inverted-print.ts';
import type { DecodedBarcode, Region } from './types.ts';

/** A line of printed text as the recogniser read it, in the coordinates of the image sent. */
export interface TextLine {
  text: string;
  /** 0 to 1. */
  confidence: number;
  /** Where the line is in the image as sent: what the answer tells. */
  region: Region;
  /** Where it is once the image is turned upright, at the reading scale: what the layout uses. */
  upright: Region;
}

/** What the pixels hold before any meaning is given to it. */
export interface Recognised {
  barcodes: DecodedBarcode[];
  lines: TextLine[];
}

/**
 * The language data comes from an npm package, read from disk (never downloaded at run time).
 * `best_int` is the accurate model in its fast integer form. English alone: a second model
 * (French) doubles the time of every read for the accents of a few city names.
 */
const LANGUAGE = 'eng';
const LANGUAGE_DIR = `${path.dirname(fileURLToPath(import.meta.resolve(`@tesseract.js-data/${LANGUAGE}/package.json`)))}/4.0.0_best_int`;

let zxingReady = false;
let recogniser: Promise<TesseractWorker> | null = null;

/** The thread's recogniser, started once and kept: loading the models takes longer than a read. */
function theRecogniser(): Promise<TesseractWorker> {
  recogniser ??= (async () => {
    // The packages of reading load in the reader's threads, at their first label: the service's
    // main thread, which names this module, never needs them.
    const { createWorker } = await import('tesseract.js');
    const worker = await createWorker(LANGUAGE, 1, {
      langPath: LANGUAGE_DIR,
      cacheMethod: 'none',
      gzip: true,
    });
    // Images are read as near 300 dpi as labels print; their own resolution headers are often wrong.
    await worker.setParameters({ preserve_interword_spaces: '1', user_defined_dpi: '300' });
    return worker;
  })();
  return recogniser;
}

/** Every barcode the image holds (any symbology ZXing reads), then the text, read upright. */
export async function recognise(raster: Raster): Promise<Recognised> {
  const barcodes = await decodeBarcodes(raster);
  const angle = skewOf(barcodes);
  const lines = await readText(withoutSymbols(raster, barcodes), angle);
  return { barcodes: barcodes.map(({ format, text, region }) => ({ format, text, region })), lines };
}

async function decodeBarcodes(
  raster: Raster,
): Promise<Array<DecodedBarcode & { orientation: number; position: Position }>> {
  const { prepareZXingModule, readBarcodes } = await import('zxing-wasm/reader');
  if (!zxingReady) {
    // The WebAssembly is read from the package, not fetched from a CDN as in a browser.
    const wasm = readFileSync(fileURLToPath(import.meta.resolve('zxing-wasm/reader/zxing_reader.wasm')));
    prepareZXingModule({ overrides: { wasmBinary: wasm.buffer as ArrayBuffer }, fireImmediately: true });
    zxingReady = true;
  }
  const results = await readBarcodes(
    {
      data: new Uint8ClampedArray(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength),
      width: raster.width,
      height: raster.height,
      colorSpace: 'srgb',
    },
    { formats: [], tryHarder: true, tryRotate: true, tryInvert: false, maxNumberOfSymbols: 16 },
  );
  return results
    .filter((result) => result.isValid && result.text)
    .map((result) => {
      const corners = Object.values(result.position);
      const xs = corners.map((corner) => corner.x);
      const ys = corners.map((corner) => corner.y);
      const region = {
        x: Math.min(...xs),
        y: Math.min(...ys),
        width: Math.max(...xs) - Math.min(...xs),
        height: Math.max(...ys) - Math.min(...ys),
      };
      // GS1-128 is Code 128 whose first character is FNC1: ZXing says so in the symbology identifier.
      const format =
        result.format === 'Code128' && result.symbologyIdentifier === ']C1' ? 'GS1-128' : result.format;
      return {
        format,
        text: result.text,
        region,
        orientation: result.orientation,
        position: result.position,
      };
    });
}

/**
 * How far the label is turned clockwise, in degrees, from its barcodes. A square symbol (QR,
 * DataMatrix) gives its own orientation; a linear one is read along scan lines, and the slope of
 * its left edge between the first and last line gives the angle of its bars. Zero without a
 * barcode: the recogniser then straightens what it can itself.
 */
function skewOf(barcodes: Array<{ format: string; orientation: number; position: Position }>): number {
  const angles: number[] = [];
  for (const { format, orientation, position } of barcodes) {
    if (SQUARE_SYMBOLS.has(format)) {
      angles.push(((((orientation + 45) % 90) + 90) % 90) - 45);
      continue;
    }
    const { topLeft, bottomLeft } = position;
    const height = bottomLeft.y - topLeft.y;
    if (height >= 10) angles.push((Math.atan2(-(bottomLeft.x - topLeft.x), height) * 180) / Math.PI);
  }
  if (angles.length === 0) return 0;
  angles.sort((a, b) => a - b);
  return angles[Math.floor(angles.length / 2)]!;
}
type Position = Record<'topLeft' | 'topRight' | 'bottomRight' | 'bottomLeft', { x: number; y: number }>;
const SQUARE_SYMBOLS = new Set(['QRCode', 'MicroQRCode', 'DataMatrix', 'Aztec', 'MaxiCode', 'rMQRCode']);

/**
 * The image with its two-dimensional symbols painted white: read as text they are only noise,
 * and time. Linear barcodes stay: ZXing's outline of them is a band of the bars, not all of them.
 */
function withoutSymbols(raster: Raster, barcodes: Array<{ format: string; position: Position }>): Raster {
  const symbols = barcodes.filter(
    (barcode) => SQUARE_SYMBOLS.has(barcode.format) || barcode.format === 'PDF417',
  );
  if (symbols.length === 0) return raster;
  const data = Buffer.from(raster.data);
  for (const { position } of symbols) {
    const corners = [position.topLeft, position.topRight, position.bottomRight, position.bottomLeft];
    const inside = (x: number, y: number) =>
      corners.every((a, i) => {
        const b = corners[(i + 1) % 4]!;
        return (b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x) >= 0;
      });
    const xs = corners.map((corner) => corner.x);
    const ys = corners.map((corner) => corner.y);
    for (
      let y = Math.max(0, Math.floor(Math.min(...ys)));
      y <= Math.min(raster.height - 1, Math.max(...ys));
      y++
    ) {
      for (
        let x = Math.max(0, Math.floor(Math.min(...xs)));
        x <= Math.min(raster.width - 1, Math.max(...xs));
        x++
      ) {
        if (inside(x, y)) data.fill(255, (y * raster.width + x) * 4, (y * raster.width + x) * 4 + 3);
      }
    }
  }
  return { ...raster, data };
}

/** The text is read at about 300 dpi for a 4 × 6 in label: smaller images are enlarged, huge ones reduced. */
const READ_WIDTH = { min: 1200, max: 2000 };

async function readText(raster: Raster, angle: number): Promise<TextLine[]> {
  const scale = Math.min(
    READ_WIDTH.max / raster.width,
    Math.max(1, READ_WIDTH.min / Math.min(raster.width, raster.height)),
  );
  const { default: sharp } = await import('sharp');
  let image = sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: 4 } });
  if (Math.abs(angle) >= 0.5) image = image.rotate(-angle, { background: '#ffffff' });
  // Rotation changes the canvas size; the recogniser's coordinates are mapped back through it.
  const turned = await image
    .flatten({ background: '#ffffff' })
    .greyscale()
    .normalise()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  invertDarkBoxes(turned.data, turned.info.width, turned.info.height);
  let grey = sharp(turned.data, {
    raw: { width: turned.info.width, height: turned.info.height, channels: 1 },
  });
  if (scale !== 1) grey = grey.resize({ width: Math.round(turned.info.width * scale), kernel: 'lanczos3' });
  const prepared = await grey.png({ compressionLevel: 1 }).toBuffer();
  const worker = await theRecogniser();
  const { data } = await worker.recognize(prepared, {}, { blocks: true, text: false });
  const back = backToSource(raster, turned.info, scale, angle);
  const lines: TextLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const words of columnsOf(line.words, line.bbox.y1 - line.bbox.y0)) {
          const text = words
            .map((word) => word.text)
            .join(' ')
            .replace(/\s+/g, ' ')
            .trim();
          if (!text) continue;
          const box = {
            x0: Math.min(...words.map((word) => word.bbox.x0)),
            y0: Math.min(...words.map((word) => word.bbox.y0)),
            x1: Math.max(...words.map((word) => word.bbox.x1)),
            y1: Math.max(...words.map((word) => word.bbox.y1)),
          };
          const confidence = words.reduce((sum, word) => sum + word.confidence, 0) / words.length / 100;
          const upright = { x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 };
          lines.push({ text, confidence, region: back(box), upright });
        }
      }
    }
  }
  return lines;
}

type Word = { text: string; confidence: number; bbox: { x0: number; y0: number; x1: number; y1: number } };

/**
 * A recognised line split where its words stand far apart: a label prints fields side by side
 * ("Weight: 2 kg" left, "Package 1 of 2" right), and each is a line of its own.
 */
function columnsOf(words: Word[], lineHeight: number): Word[][] {
  const columns: Word[][] = [];
  for (const word of words) {
    const current = columns.at(-1);
    const previous = current?.at(-1);
    if (current && previous && word.bbox.x0 - previous.bbox.x1 <= 2 * lineHeight) current.push(word);
    else columns.push([word]);
  }
  return columns;
}

/** Maps a box of the prepared image (turned, then scaled) to the image as sent. */
function backToSource(
  raster: Raster,
  turned: { width: number; height: number },
  scale: number,
  angle: number,
): (box: { x0: number; y0: number; x1: number; y1: number }) => Region {
  const radians = (angle * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return (box) => {
    const corners = [
      [box.x0, box.y0],
      [box.x1, box.y0],
      [box.x0, box.y1],
      [box.x1, box.y1],
    ].map(([x, y]) => {
      // From the turned canvas's centre back by the angle to the source's centre.
      const dx = x! / scale - turned.width / 2;
      const dy = y! / scale - turned.height / 2;
      return [raster.width / 2 + dx * cos - dy * sin, raster.height / 2 + dx * sin + dy * cos];
    });
    const xs = corners.map(([x]) => x!);
    const ys = corners.map(([, y]) => y!);
    const x = Math.max(0, Math.round(Math.min(...xs)));
    const y = Math.max(0, Math.round(Math.min(...ys)));
    return {
      x,
      y,
      width: Math.round(Math.min(raster.width, Math.max(...xs)) - x),
      height: Math.round(Math.min(raster.height, Math.max(...ys)) - y),
    };
  };
}
