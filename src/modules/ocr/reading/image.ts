import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metadata, Sharp } from 'sharp';
import { AppError } from '../../../platform/errors.ts';
import { LABEL_LIMITS, type LabelMediaType, labelNotReadable } from './limits.ts';

/** An image as pixels: 4 bytes a pixel (RGBA), rows top to bottom. */
export interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/** A PDF page is rendered at this many dots per inch: what label printers print. */
const PDF_DPI = 300;

/**
 * The image to read, as pixels: a PNG or JPEG turned upright by its EXIF orientation (a phone's
 * photo), or the first page of a PDF rendered at 300 dpi. Refused past the pixel limits before
 * any pixel is decoded.
 */
export async function rasterOf(bytes: Buffer, type: LabelMediaType): Promise<Raster> {
  if (type === 'application/pdf') return renderPdfPage(bytes);
  // Loaded at the first image, in the reader's threads (see recognise.ts).
  const { default: sharp } = await import('sharp');
  let image: Sharp;
  let meta: Metadata;
  try {
    image = sharp(bytes, { limitInputPixels: false, failOn: 'error' });
    meta = await image.metadata();
  } catch {
    throw labelNotReadable(type);
  }
  if (`image/${meta.format}` !== type) {
    throw labelNotReadable(type);
  }
  checkSize(meta.width, meta.height);
  try {
    const { data, info } = await image.autoOrient().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw labelNotReadable(type);
  }
}

/** The size limits, said in the refusal: both sides and the pixel count. */
export function checkSize(width: number, height: number): void {
  const { maxSide, maxMegapixels } = LABEL_LIMITS;
  if (width > maxSide || height > maxSide || width * height > maxMegapixels * 1_000_000) {
    const size = { width, height, max_side: maxSide, max_megapixels: maxMegapixels };
    throw new AppError('LABEL_IMAGE_TOO_LARGE', { params: size, details: size });
  }
}

/** A PDF's first page as pixels at `dpi`, on white, as a viewer shows it. */
export async function renderPdfPage(bytes: Buffer, dpi = PDF_DPI): Promise<Raster> {
  const [pdfjs, { createCanvas }] = await Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('@napi-rs/canvas'),
  ]);
  let document: Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>;
  try {
    document = await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      // Fonts are drawn from the PDF's own data or pdf.js's standard fonts, never fetched or
      // installed: a label reads the same on every machine.
      standardFontDataUrl: STANDARD_FONTS,
      disableFontFace: true,
      useSystemFonts: false,
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
  } catch {
    throw labelNotReadable('application/pdf');
  }
  try {
    const page = await document.getPage(1);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.ceil(viewport.width);
    const height = Math.ceil(viewport.height);
    checkSize(width, height);
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    const pixels = context.getImageData(0, 0, width, height).data;
    return { data: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw labelNotReadable('application/pdf');
  } finally {
    await document.destroy();
  }
}

/** Resolved as a package, so it holds from the sources and from the built service alike. */
const STANDARD_FONTS = `${path.dirname(fileURLToPath(import.meta.resolve('pdfjs-dist/package.json')))}/standard_fonts/`;
