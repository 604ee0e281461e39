/**
 * What phones and worn printers do to a label: rotation, blur, heavy JPEG, low contrast, a
 * photograph taken at an angle, and all of them at once. Each variant's strength is drawn from
 * the label's own seed, so a subset of the set gives the same bytes as the whole.
 */
import sharp from 'sharp';
import type { Raster as Raw } from '../../src/modules/ocr/reading/image.ts';
import type { Random } from './random.ts';

export const DEGRADATIONS = [
  'rotated',
  'blurred',
  'jpeg40',
  'low_contrast',
  'perspective',
  'combined',
] as const;
export type Degradation = (typeof DEGRADATIONS)[number];

export interface Image {
  bytes: Buffer;
  mediaType: 'image/png' | 'image/jpeg';
  /** What was done, for the report and the dump. */
  detail: string;
}

const fromRaw = (raw: Raw) => sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 4 } });
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };
const GREY = { r: 128, g: 124, b: 118, alpha: 1 };

export async function clean(raw: Raw): Promise<Image> {
  return {
    bytes: await fromRaw(raw).flatten({ background: WHITE }).png().toBuffer(),
    mediaType: 'image/png',
    detail: '',
  };
}

export async function degrade(raw: Raw, kind: Degradation, random: Random): Promise<Image> {
  const sign = random.next() < 0.5 ? -1 : 1;
  switch (kind) {
    case 'rotated': {
      const angle = sign * random.between(2, 10);
      const grey = random.next() < 0.5;
      const bytes = await fromRaw(raw)
        .rotate(angle, { background: grey ? GREY : WHITE })
        .flatten({ background: WHITE })
        .png()
        .toBuffer();
      return { bytes, mediaType: 'image/png', detail: `${angle.toFixed(1)}° on ${grey ? 'grey' : 'white'}` };
    }
    case 'blurred': {
      const sigma = random.between(1, 1.5);
      const bytes = await fromRaw(raw).flatten({ background: WHITE }).blur(sigma).png().toBuffer();
      return { bytes, mediaType: 'image/png', detail: `sigma ${sigma.toFixed(2)}` };
    }
    case 'jpeg40': {
      const bytes = await fromRaw(raw).flatten({ background: WHITE }).jpeg({ quality: 40 }).toBuffer();
      return { bytes, mediaType: 'image/jpeg', detail: 'quality 40' };
    }
    case 'low_contrast': {
      const bytes = await fromRaw(raw).flatten({ background: WHITE }).linear(0.5, 100).png().toBuffer();
      return { bytes, mediaType: 'image/png', detail: 'linear(0.5, 100)' };
    }
    case 'perspective': {
      const narrower = random.between(0.08, 0.12);
      const warped = perspective(raw, narrower, GREY);
      const bytes = await fromRaw(warped).flatten({ background: WHITE }).jpeg({ quality: 85 }).toBuffer();
      return { bytes, mediaType: 'image/jpeg', detail: `top ${(narrower * 100).toFixed(0)} % narrower` };
    }
    case 'combined': {
      const narrower = random.between(0.06, 0.1);
      const angle = sign * random.between(2, 5);
      const sigma = random.between(0.8, 1.1);
      const warped = perspective(raw, narrower, GREY);
      const bytes = await fromRaw(warped)
        .rotate(angle, { background: GREY })
        .flatten({ background: WHITE })
        .blur(sigma)
        .linear(0.75, 40)
        .jpeg({ quality: 55 })
        .toBuffer();
      return {
        bytes,
        mediaType: 'image/jpeg',
        detail: `top ${(narrower * 100).toFixed(0)} % narrower, ${angle.toFixed(1)}°, sigma ${sigma.toFixed(2)}, contrast 0.75, quality 55`,
      };
    }
  }
}

/**
 * The label as photographed from below its bottom edge: the top edge `narrower` shorter and
 * centred, the top pulled down a little. Each output pixel is mapped back to the flat label by
 * the inverse homography and sampled bilinearly; outside the label is the table (`background`).
 */
export function perspective(
  raw: Raw,
  narrower: number,
  background: { r: number; g: number; b: number },
): Raw {
  const { width: w, height: h, data } = raw;
  const inset = (narrower * w) / 2;
  const drop = 0.03 * h;
  // Where the label's corners land in the photo: top-left, top-right, bottom-right, bottom-left.
  const photo: [number, number][] = [
    [inset, drop],
    [w - 1 - inset, drop],
    [w - 1, h - 1],
    [0, h - 1],
  ];
  const flat: [number, number][] = [
    [0, 0],
    [w - 1, 0],
    [w - 1, h - 1],
    [0, h - 1],
  ];
  const m = homography(photo, flat);
  const out = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = m[6]! * x + m[7]! * y + 1;
      const sx = (m[0]! * x + m[1]! * y + m[2]!) / d;
      const sy = (m[3]! * x + m[4]! * y + m[5]!) / d;
      const o = (y * w + x) * 4;
      if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) {
        out[o] = background.r;
        out[o + 1] = background.g;
        out[o + 2] = background.b;
        out[o + 3] = 255;
        continue;
      }
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(x0 + 1, w - 1);
      const y1 = Math.min(y0 + 1, h - 1);
      const fx = sx - x0;
      const fy = sy - y0;
      const a = (y0 * w + x0) * 4;
      const b = (y0 * w + x1) * 4;
      const c = (y1 * w + x0) * 4;
      const e = (y1 * w + x1) * 4;
      for (let k = 0; k < 4; k++) {
        const top = data[a + k]! * (1 - fx) + data[b + k]! * fx;
        const bottom = data[c + k]! * (1 - fx) + data[e + k]! * fx;
        out[o + k] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { data: out, width: w, height: h };
}

/** The 3 × 3 projective map (h33 = 1, row-major, 8 numbers) taking the four `from` points to `to`. */
export function homography(from: [number, number][], to: [number, number][]): number[] {
  const rows: number[][] = [];
  from.forEach(([x, y], i) => {
    const [u, v] = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  });
  // Gaussian elimination with partial pivoting on the 8 × 9 augmented matrix.
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let r = col + 1; r < 8; r++) if (Math.abs(rows[r]![col]!) > Math.abs(rows[pivot]![col]!)) pivot = r;
    [rows[col], rows[pivot]] = [rows[pivot]!, rows[col]!];
    const p = rows[col]!;
    for (let r = 0; r < 8; r++) {
      if (r === col) continue;
      const row = rows[r]!;
      const factor = row[col]! / p[col]!;
      for (let k = col; k < 9; k++) row[k] = row[k]! - factor * p[k]!;
    }
  }
  return rows.map((row, i) => row[8]! / row[i]!);
}
