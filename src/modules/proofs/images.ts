/** The image types a proof may be, by media type. */
export const PROOF_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ProofMediaType = (typeof PROOF_MEDIA_TYPES)[number];

/** The longest side an image may have: a phone photo is some 4000 pixels, a poster 20000. */
export const MAX_IMAGE_SIDE = 8000;

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The size an image of the declared type says it has, read from its own header; null when the
 * bytes are not that type (wrong signature, a header cut short or inconsistent) or a side is 0 or
 * over MAX_IMAGE_SIDE. Nothing is decoded past the header.
 */
export function imageSize(bytes: Buffer, type: ProofMediaType): ImageSize | null {
  const size = READERS[type](bytes);
  if (!size) return null;
  const fits = (side: number) => Number.isInteger(side) && side >= 1 && side <= MAX_IMAGE_SIDE;
  return fits(size.width) && fits(size.height) ? size : null;
}

const READERS: Record<ProofMediaType, (bytes: Buffer) => ImageSize | null> = {
  'image/png': pngSize,
  'image/jpeg': jpegSize,
  'image/webp': webpSize,
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG: the signature, then the IHDR chunk first, 13 bytes long, width and height big-endian. */
function pngSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** JPEG markers that stand alone, without a length: TEM and RST0 to RST7. */
const STANDALONE = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
/** Start-of-frame markers (SOF0 to SOF15 less DHT, JPG and DAC): they hold the frame's size. */
const START_OF_FRAME = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: SOI, then segments up to the first start of frame, which gives height then width. */
function jpegSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8 || bytes[2] !== 0xff) return null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    // Fill bytes (0xFF) may pad before a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (STANDALONE(marker)) {
      offset += 2;
      continue;
    }
    // The image data or its end before any frame: no size to read.
    if (marker === 0xda || marker === 0xd9 || marker === 0xd8) return null;
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return null;
    if (START_OF_FRAME(marker)) {
      if (length < 7 || offset + 9 > bytes.length) return null;
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

/** WebP: a RIFF container of type WEBP whose first chunk is lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webpSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 30) return null;
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return null;
  const data = 20;
  switch (bytes.toString('latin1', 12, 16)) {
    case 'VP8 ':
      // A key frame's start code, then 14-bit width and height (2 bits of scaling above them).
      if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) return null;
      return {
        width: bytes.readUInt16LE(data + 6) & 0x3fff,
        height: bytes.readUInt16LE(data + 8) & 0x3fff,
      };
    case 'VP8L': {
      if (bytes[data] !== 0x2f) return null;
      const bits = bytes.readUInt32LE(data + 1);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      // Flags and reserved bytes, then the canvas size minus one, 24 bits each.
      return { width: bytes.readUIntLE(data + 4, 3) + 1, height: bytes.readUIntLE(data + 7, 3) + 1 };
    default:
      return null;
  }
}
