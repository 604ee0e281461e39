/**
 * The pictures of docs/packing.md and docs/loading.md, drawn from real solver answers with the
 * service's own picture function: a packed carton and an LD3 load (the van's, in docs/loading.md,
 * is the demo's, taken by test/demo.test.ts with SCREENSHOTS=1).
 *
 *   node --import tsx bench/packing/pictures.ts    (writes docs/pictures/*.svg)
 */
import { writeFile } from 'node:fs/promises';
import { loadPictureSvg } from '../../src/modules/packing/picture.ts';
import { solveCartons } from '../../src/modules/packing/solver/cartons/index.ts';
import { solveLoading } from '../../src/modules/packing/solver/loading/index.ts';
import { loadingSpaceOf, standardSpace, standardView } from '../../src/modules/packing/spaces.ts';
import { say } from '../support.ts';

const OUT = new URL('../../docs/pictures/', import.meta.url);

async function draw(name: string, svg: string) {
  await writeFile(new URL(name, OUT), `${svg}\n`);
  say(`docs/pictures/${name}`);
}

// A carton: mugs, books and a lamp base in the smallest box that takes them within 90 %.
const cartons = solveCartons({
  catalog: [
    [300, 200, 200],
    [400, 300, 250],
    [500, 400, 300],
  ].map(([length, width, height], index) => ({
    id: index + 1,
    inner: { length: length!, width: width!, height: height! },
    outer: { length: length! + 10, width: width! + 10, height: height! + 10 },
    tareGrams: 300,
    maxGrossGrams: 20_000,
    costMinor: 100,
    active: true,
  })),
  items: [
    { id: 0, dimensions: { length: 120, width: 120, height: 110 }, weightGrams: 400, quantity: 4 },
    { id: 1, dimensions: { length: 240, width: 170, height: 40 }, weightGrams: 700, quantity: 3 },
    {
      id: 2,
      dimensions: { length: 180, width: 180, height: 200 },
      weightGrams: 1500,
      quantity: 1,
      thisSideUp: true,
    },
  ],
  targetUtilizationPercent: 90,
  maxIterations: 2000,
  seed: 1,
});
const pkg = cartons.packages[0]!;
const names = ['mug', 'book', 'lamp base'];
await draw(
  'packing-carton.svg',
  loadPictureSvg(
    { name: 'carton', ...pkg.inner },
    pkg.items.map((item) => ({
      ...item.placed,
      x: item.x,
      y: item.y,
      z: item.z,
      group: names[item.itemId]!,
    })),
    `A packing plan: ${pkg.items.length} pieces in a ${pkg.inner.length} x ${pkg.inner.width} x ${pkg.inner.height} mm carton, ${(pkg.fillRatio * 100).toFixed(0)} % full`,
  ),
);

async function load(file: string, code: string, items: Parameters<typeof solveLoading>[0]['items']) {
  const space = standardSpace(code)!;
  const answer = solveLoading({
    space: loadingSpaceOf(standardView(space)),
    items,
    options: { supportShare: 0.75, maxIterations: 300, seed: 1 },
  });
  const stops = new Set(items.map((item) => item.stop ?? 0)).size > 1;
  await draw(
    file,
    loadPictureSvg(
      {
        name: space.name,
        length: space.lengthMm,
        width: space.widthMm,
        height: space.heightMm,
        crossSection: space.crossSection,
      },
      answer.placements.map((p) => ({
        x: p.x,
        y: p.y,
        z: p.z,
        length: p.length,
        width: p.width,
        height: p.height,
        group: stops ? `stop ${items[p.item]!.stop}` : p.itemId,
        ...(stops && { label: String(items[p.item]!.stop) }),
      })),
      `${space.name}: ${answer.placements.length} boxes, ${(answer.volumeUtilization * 100).toFixed(1)} % of the volume`,
    ),
  );
}

// An LD3: its sloping wall keeps the lower boxes in from one side.
await load('loading-ld3.svg', 'uld-ld3', [
  { id: 'carton 50', length: 500, width: 400, height: 400, quantity: 30, weightKg: 15 },
  { id: 'carton 30', length: 300, width: 300, height: 300, quantity: 30, weightKg: 8 },
]);
