import type { LoadingItem } from './types.ts';

/** One way to stand a box: extents along x, y, z and which item dimension lies along each. */
export interface Orientation {
  dx: number;
  dy: number;
  dz: number;
  code: string;
}

export interface BoxType {
  index: number;
  item: LoadingItem;
  weight: number;
  orientations: Orientation[];
  /** The lowest height it may stand at: its flattest allowed orientation's. */
  flattest: number;
  stop: number;
  /** Fragile or load-limited boxes go in one-high blocks, so a block never loads its own boxes. */
  stackable: boolean;
  volume: number;
}

const PERMUTATIONS: Array<[number, number, number]> = [
  [0, 1, 2],
  [1, 0, 2],
  [0, 2, 1],
  [2, 0, 1],
  [1, 2, 0],
  [2, 1, 0],
];

/** The distinct orientations an item allows: the vertical dimension must be one it may stand on. */
export function orientationsOf(item: LoadingItem): Orientation[] {
  const dims = [item.length, item.width, item.height];
  const seen = new Set<string>();
  const out: Orientation[] = [];
  for (const [ix, iy, iz] of PERMUTATIONS) {
    if (item.mayBeVertical && !item.mayBeVertical[iz]) continue;
    const key = `${dims[ix]}x${dims[iy]}x${dims[iz]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ dx: dims[ix]!, dy: dims[iy]!, dz: dims[iz]!, code: `${'LWH'[ix]}${'LWH'[iy]}${'LWH'[iz]}` });
  }
  return out;
}

export function boxTypesOf(items: LoadingItem[]): BoxType[] {
  return items.map((item, index) => {
    const orientations = orientationsOf(item);
    return {
      index,
      item,
      weight: item.weightKg ?? 0,
      orientations,
      flattest: Math.min(...orientations.map((o) => o.dz)),
      stop: item.stop ?? 0,
      stackable: !item.fragile && item.maxLoadOnTopKg === undefined,
      volume: item.length * item.width * item.height,
    };
  });
}
