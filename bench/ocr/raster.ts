/** A PDF page to pixels as a person's viewer shows it: pdfjs onto a white canvas. */
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const fonts = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

export interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

/** The first page at `dpi`, as RGBA pixels. */
export async function rasterise(pdf: Buffer, dpi: number): Promise<Raw> {
  const document = await getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: fonts,
    verbosity: 0,
    isEvalSupported: false,
  }).promise;
  try {
    const page = await document.getPage(1);
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.round(viewport.width);
    const height = Math.round(viewport.height);
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({
      canvas: canvas as never,
      canvasContext: context as never,
      viewport,
    }).promise;
    const pixels = context.getImageData(0, 0, width, height);
    return {
      data: Buffer.from(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength),
      width,
      height,
    };
  } finally {
    await document.destroy();
  }
}
