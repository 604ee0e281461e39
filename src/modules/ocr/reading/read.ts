import { extractFields } from './extract.ts';
import { rasterOf } from './image.ts';
import type { LabelMediaType } from './limits.ts';
import { recognise } from './recognise.ts';
import type { LabelReading } from './types.ts';

/** In a reader thread: the label's pixels, then its barcodes and text, then what they mean. */
export async function readLabelPixels(
  bytes: Buffer,
  type: string,
  ownTrackingUrl?: string,
): Promise<LabelReading> {
  const raster = await rasterOf(bytes, type as LabelMediaType);
  const { barcodes, lines } = await recognise(raster);
  return {
    width: raster.width,
    height: raster.height,
    fields: extractFields(barcodes, lines, ownTrackingUrl),
    barcodes,
    text: lines.map((line) => line.text).join('\n'),
  };
}
