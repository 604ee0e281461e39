/**
 * Print on black: carriers set the service level white on a black box, and the recogniser reads
 * dark text on light. Filled dark rectangles are found on a coarse grid of the greyscale image
 * (wider than high, nearly full) and turned the other way round, in place. Barcodes' bars are
 * higher than wide, and bold print is half dark at most on the grid's cells: they stay as they are.
 */

/** The grid's cell, in pixels: a fifth of a line of label print at 300 dpi. */
const CELL = 8;
/** A cell this dark on average (0 black, 255 white) is part of a filled box. */
const DARK = 100;
/** A box is at least this many cells, its bounding rectangle at least this full. */
const MIN_CELLS = 12;
const MIN_FILL = 0.75;

export function invertDarkBoxes(grey: Buffer, width: number, height: number): number {
  const columns = Math.floor(width / CELL);
  const rows = Math.floor(height / CELL);
  const dark = new Uint8Array(columns * rows);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      let sum = 0;
      for (let y = row * CELL; y < (row + 1) * CELL; y++) {
        const start = y * width + column * CELL;
        for (let x = start; x < start + CELL; x++) sum += grey[x]!;
      }
      dark[row * columns + column] = sum / (CELL * CELL) < DARK ? 1 : 0;
    }
  }
  let inverted = 0;
  const seen = new Uint8Array(dark.length);
  for (let first = 0; first < dark.length; first++) {
    if (!dark[first] || seen[first]) continue;
    // The box's cells, by a flood over the grid (four neighbours).
    const stack = [first];
    seen[first] = 1;
    let cells = 0;
    let [top, bottom, left, right] = [rows, 0, columns, 0];
    while (stack.length > 0) {
      const cell = stack.pop()!;
      const row = Math.floor(cell / columns);
      const column = cell % columns;
      cells += 1;
      [top, bottom, left, right] = [
        Math.min(top, row),
        Math.max(bottom, row),
        Math.min(left, column),
        Math.max(right, column),
      ];
      for (const next of [
        cell - columns,
        cell + columns,
        column > 0 ? cell - 1 : -1,
        column < columns - 1 ? cell + 1 : -1,
      ]) {
        if (next >= 0 && next < dark.length && dark[next] && !seen[next]) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    const area = (bottom - top + 1) * (right - left + 1);
    // A box of print is wider than high: a barcode's bar is the other way round.
    const wide = right - left + 1 >= 2 * (bottom - top + 1);
    if (cells < MIN_CELLS || cells / area < MIN_FILL || bottom === top || !wide) continue;
    for (let y = top * CELL; y < (bottom + 1) * CELL; y++) {
      for (let x = y * width + left * CELL; x < y * width + (right + 1) * CELL; x++) grey[x] = 255 - grey[x]!;
    }
    inverted += 1;
  }
  return inverted;
}
