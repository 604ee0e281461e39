import type { LoadingItem } from '../../src/modules/packing/solver/loading/index.ts';
import { mulberry32 } from '../../src/platform/random.ts';

/**
 * A generated multi-drop day: parcels of 1 to 15 kg, 200-600 × 150-450 × 100-400 mm, until they
 * fill `fill` of the space's volume, the stops taken in turn (parcel n goes to stop 1 + n % stops).
 * The solver's tests of loads handled by hand and bench/packing/hand-days.ts load the same days.
 */
export function multiDropDay(
  space: { length: number; width: number; height: number },
  stops: number,
  fill: number,
  seed: number,
): LoadingItem[] {
  const random = mulberry32(seed);
  const wanted = fill * space.length * space.width * space.height;
  const items: LoadingItem[] = [];
  for (let volume = 0; volume < wanted; ) {
    const n = items.length;
    const [length, width, height] = [
      200 + Math.round(random() * 40) * 10,
      150 + Math.round(random() * 30) * 10,
      100 + Math.round(random() * 30) * 10,
    ];
    items.push({
      id: `p${n}`,
      length,
      width,
      height,
      quantity: 1,
      weightKg: 1 + random() * 14,
      stop: 1 + (n % stops),
    });
    volume += length * width * height;
  }
  return items;
}
