import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { imageSize, MAX_IMAGE_SIDE } from './images.ts';

/** A real PNG of this size, as pngjs writes it. */
function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(0x80);
  return PNG.sync.write(image);
}

/** A smallest valid baseline JPEG: one white pixel. */
const JPEG_1X1 = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** A JPEG header: SOI, an APP0 segment, fill bytes, then a baseline frame of this size. */
function jpegHeader(width: number, height: number): Buffer {
  const frame = Buffer.from([0xff, 0xc0, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  const app0 = Buffer.from([0xff, 0xe0, 0, 16, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    app0,
    Buffer.from([0xff]),
    frame,
    Buffer.from([0xff, 0xd9]),
  ]);
}

function riff(chunk: string, data: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(12 + data.length, 4);
  header.write('WEBP', 8, 'latin1');
  header.write(chunk, 12, 'latin1');
  header.writeUInt32LE(data.length, 16);
  return Buffer.concat([header, data]);
}

function webpLossless(width: number, height: number): Buffer {
  const data = Buffer.alloc(16);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  return riff('VP8L', data);
}

function webpLossy(width: number, height: number): Buffer {
  const data = Buffer.from([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  return riff('VP8 ', data);
}

function webpExtended(width: number, height: number): Buffer {
  const data = Buffer.alloc(16);
  data.writeUIntLE(width - 1, 4, 3);
  data.writeUIntLE(height - 1, 7, 3);
  return riff('VP8X', data);
}

describe('imageSize', () => {
  it('reads a PNG, a JPEG and the three kinds of WebP from their headers', () => {
    assert.deepEqual(imageSize(png(3, 2), 'image/png'), { width: 3, height: 2 });
    assert.deepEqual(imageSize(JPEG_1X1, 'image/jpeg'), { width: 1, height: 1 });
    assert.deepEqual(imageSize(jpegHeader(640, 480), 'image/jpeg'), { width: 640, height: 480 });
    assert.deepEqual(imageSize(webpLossless(300, 200), 'image/webp'), { width: 300, height: 200 });
    assert.deepEqual(imageSize(webpLossy(1024, 768), 'image/webp'), { width: 1024, height: 768 });
    assert.deepEqual(imageSize(webpExtended(4000, 3000), 'image/webp'), { width: 4000, height: 3000 });
  });

  it('refuses bytes of another type than the declared one', () => {
    assert.equal(imageSize(png(3, 2), 'image/jpeg'), null);
    assert.equal(imageSize(JPEG_1X1, 'image/png'), null);
    assert.equal(imageSize(webpLossless(3, 2), 'image/png'), null);
    assert.equal(imageSize(png(3, 2), 'image/webp'), null);
  });

  it('refuses text, and headers cut short or without a size', () => {
    const text = Buffer.from('This is not an image, whatever the Content-Type says.\n'.repeat(4));
    for (const type of ['image/png', 'image/jpeg', 'image/webp'] as const) {
      assert.equal(imageSize(text, type), null, type);
      assert.equal(imageSize(Buffer.alloc(0), type), null, type);
    }
    assert.equal(imageSize(png(3, 2).subarray(0, 20), 'image/png'), null);
    assert.equal(imageSize(jpegHeader(640, 480).subarray(0, 12), 'image/jpeg'), null);
    // The image data starts before any frame tells its size.
    assert.equal(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 1, 0, 0]), 'image/jpeg'), null);
    assert.equal(imageSize(webpLossless(3, 2).subarray(0, 24), 'image/webp'), null);
  });

  it(`refuses a side of 0 or over ${MAX_IMAGE_SIDE} pixels`, () => {
    const wide = png(3, 2);
    wide.writeUInt32BE(MAX_IMAGE_SIDE + 1, 16);
    assert.equal(imageSize(wide, 'image/png'), null);
    wide.writeUInt32BE(MAX_IMAGE_SIDE, 16);
    assert.deepEqual(imageSize(wide, 'image/png'), { width: MAX_IMAGE_SIDE, height: 2 });
    assert.equal(imageSize(jpegHeader(640, 0), 'image/jpeg'), null);
    assert.equal(imageSize(jpegHeader(9000, 480), 'image/jpeg'), null);
    assert.equal(imageSize(webpExtended(16000, 100), 'image/webp'), null);
  });
});
