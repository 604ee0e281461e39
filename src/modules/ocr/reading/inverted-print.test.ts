import assert from 'node:assert/strict';
import { test } from 'node:test';
import { invertDarkBoxes } from './inverted-print.ts';

const WIDTH = 240;
const HEIGHT = 120;

function fill(grey: Buffer, x: number, y: number, width: number, height: number, value: number) {
  for (let row = y; row < y + height; row++) grey.fill(value, row * WIDTH + x, row * WIDTH + x + width);
}
const at = (grey: Buffer, x: number, y: number) => grey[y * WIDTH + x];

test('print white on a black box turns dark on light; bars and thin rules stay as they are', () => {
  const grey = Buffer.alloc(WIDTH * HEIGHT, 255);
  // The service box: black, 128 × 32, with a white stroke of "text" inside.
  fill(grey, 16, 16, 128, 32, 0);
  fill(grey, 40, 28, 60, 6, 255);
  // A barcode's bar, higher than wide; a rule, one pixel high.
  fill(grey, 176, 16, 16, 96, 0);
  fill(grey, 16, 100, 200, 1, 0);
  assert.equal(invertDarkBoxes(grey, WIDTH, HEIGHT), 1);
  assert.equal(at(grey, 20, 20), 255, 'the box is light');
  assert.equal(at(grey, 50, 30), 0, 'its print is dark');
  assert.equal(at(grey, 180, 50), 0, 'the bar is untouched');
  assert.equal(at(grey, 100, 100), 0, 'the rule is untouched');
  assert.equal(at(grey, 200, 8), 255, 'the paper is untouched');
});
