import { AppError } from '../../../platform/errors.ts';

/** The label types read: a photo or scan, or the PDF a label printer would print (its first page). */
export const LABEL_MEDIA_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export type LabelMediaType = (typeof LABEL_MEDIA_TYPES)[number];

/** The largest label body taken: a 12-megapixel phone photo is some 4 MiB. */
export const MAX_LABEL_BYTES = 10 * 1024 * 1024;

/**
 * The largest image read: a phone photo is 4000 × 3000, a 4 × 6 in label at 300 dpi 1200 × 1800.
 * Past these the pixels alone would take hundreds of megabytes in a reader thread.
 */
export const LABEL_LIMITS = { maxSide: 8000, maxMegapixels: 40 } as const;

/** The media type of a label file, from its name's extension (the command line reads files). */
export function labelMediaTypeOfFile(file: string): string {
  const extension = file.toLowerCase().split('.').pop();
  if (extension === 'png') return 'image/png';
  if (extension === 'jpg' || extension === 'jpeg') return 'image/jpeg';
  if (extension === 'pdf') return 'application/pdf';
  return `unknown/${extension}`;
}

/** 422: the bytes are not a readable label of the type they were said to be. */
export function labelNotReadable(type: string): AppError {
  return new AppError('LABEL_NOT_READABLE', { params: { type }, details: { type } });
}
