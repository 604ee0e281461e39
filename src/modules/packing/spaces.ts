import type { SpaceView } from './schemas.ts';
import type { Axle, LoadingSpace } from './solver/loading/index.ts';
import type { SpaceKind } from './tables.ts';

/**
 * The standard loading spaces every business can plan into, by code. Lengths in millimetres
 * (inside the space: what boxes can use), payloads in kilograms. Where a space is contoured (air
 * ULDs), `crossSection` is its usable y-z outline, counter-clockwise, running the whole length.
 * Real units differ by a few millimetres between makers: a business whose own vans or boxes
 * differ defines them as its own spaces (create_loading_space). Sources: docs/loading.md.
 */
export interface StandardSpace {
  code: string;
  name: string;
  kind: SpaceKind;
  lengthMm: number;
  widthMm: number;
  heightMm: number;
  payloadKg: number;
  /** The door a box must pass through (width x height), where narrower than the inside. */
  door?: { widthMm: number; heightMm: number };
  crossSection?: Array<[number, number]>;
  /** Loaded by hand from the rear door (docs/loading.md, "Loads a person handles"). */
  byHand?: { reachLimitMm: number; maxStackRatio: number; loadAtDoor: boolean };
  /** Where the figures come from. */
  source: string;
}

const ISO = 'Dry container figures as carriers publish them (inside, door, payload); ISO 668 and ISO 1496-1';
const ULD =
  'IATA ULD types as tabled in Jenkinson, Simpkin and Rhodes, Civil Jet Aircraft Design (1999), table 4.6';
/** A person standing at a van's floor reaches boxes up to about here (docs/loading.md). */
const VAN_REACH_MM = 1600;
/** A column no taller than four times the narrowest side of the floor it stands on. */
const VAN_STACK_RATIO = 4;
const ROAD = 'Typical figures of the class; measure your own vehicle and define it as a business space';

/**
 * A lower-deck container's outline: a floor `base` wide, the full `width` above `rise`, the side
 * walls sloping out in between (the hold narrows to the floor). `sides`: which walls slope.
 */
function lowerDeckContour(
  width: number,
  height: number,
  base: number,
  rise: number,
  sides: 'one' | 'both',
): Array<[number, number]> {
  if (sides === 'one') {
    return [
      [0, 0],
      [base, 0],
      [width, rise],
      [width, height],
      [0, height],
    ];
  }
  const overhang = (width - base) / 2;
  return [
    [overhang, 0],
    [width - overhang, 0],
    [width, rise],
    [width, height],
    [0, height],
    [0, rise],
  ];
}

/** The sloping walls of the lower-deck containers reach the full width at about 40 % of their height. */
const SLOPE_RISE = 640;

export const STANDARD_SPACES: readonly StandardSpace[] = [
  {
    code: 'iso-20-dv',
    name: "20' dry container",
    kind: 'container',
    lengthMm: 5895,
    widthMm: 2350,
    heightMm: 2392,
    payloadKg: 28_200,
    door: { widthMm: 2340, heightMm: 2292 },
    source: ISO,
  },
  {
    code: 'iso-40-dv',
    name: "40' dry container",
    kind: 'container',
    lengthMm: 12_032,
    widthMm: 2350,
    heightMm: 2392,
    payloadKg: 26_700,
    door: { widthMm: 2340, heightMm: 2292 },
    source: ISO,
  },
  {
    code: 'iso-40-hc',
    name: "40' high cube container",
    kind: 'container',
    lengthMm: 12_032,
    widthMm: 2350,
    heightMm: 2697,
    payloadKg: 28_500,
    door: { widthMm: 2340, heightMm: 2597 },
    source: ISO,
  },
  {
    code: 'iso-45-hc',
    name: "45' high cube container",
    kind: 'container',
    lengthMm: 13_556,
    widthMm: 2352,
    heightMm: 2698,
    payloadKg: 27_700,
    door: { widthMm: 2340, heightMm: 2585 },
    source: ISO,
  },
  {
    code: 'uld-ld3',
    name: 'LD3 (AKE) lower-deck container',
    kind: 'uld',
    lengthMm: 1534,
    widthMm: 2007,
    heightMm: 1626,
    payloadKg: 1500,
    crossSection: lowerDeckContour(2007, 1626, 1562, SLOPE_RISE, 'one'),
    source: `${ULD}: 200.7 x 153.4 x 162.6 cm, base 156.2 cm, 1,588 kg gross less about 80 kg of tare`,
  },
  {
    code: 'uld-ld6',
    name: 'LD6 (ALF) lower-deck container',
    kind: 'uld',
    lengthMm: 1534,
    widthMm: 4064,
    heightMm: 1626,
    payloadKg: 2950,
    crossSection: lowerDeckContour(4064, 1626, 3175, SLOPE_RISE, 'both'),
    source: `${ULD}: 406.4 x 153.4 x 162.6 cm, base 317.5 cm, 3,175 kg gross less about 225 kg of tare`,
  },
  {
    code: 'uld-ld8',
    name: 'LD8 (ALE) lower-deck container',
    kind: 'uld',
    lengthMm: 1534,
    widthMm: 3175,
    heightMm: 1626,
    payloadKg: 2300,
    crossSection: lowerDeckContour(3175, 1626, 2438, SLOPE_RISE, 'both'),
    source: `${ULD}: 317.5 x 153.4 x 162.5 cm, base 243.8 cm, 2,449 kg gross less about 150 kg of tare`,
  },
  {
    code: 'uld-ld7',
    name: 'LD7 pallet, 88 x 125 in, lower deck',
    kind: 'uld',
    lengthMm: 3175,
    widthMm: 2235,
    heightMm: 1625,
    payloadKg: 4500,
    source: `${ULD}: 317.5 x 223.5 x 162.5 cm, 4,627 kg gross less the pallet and net`,
  },
  {
    code: 'van-3t5',
    name: 'Panel van 3.5 t, long wheelbase, high roof',
    kind: 'van',
    lengthMm: 3270,
    widthMm: 1780,
    heightMm: 1900,
    payloadKg: 1200,
    door: { widthMm: 1560, heightMm: 1840 },
    byHand: { reachLimitMm: VAN_REACH_MM, maxStackRatio: VAN_STACK_RATIO, loadAtDoor: true },
    source: ROAD,
  },
  {
    code: 'truck-7t5',
    name: 'Box truck 7.5 t',
    kind: 'truck',
    lengthMm: 6100,
    widthMm: 2440,
    heightMm: 2400,
    payloadKg: 2800,
    source: ROAD,
  },
  {
    code: 'semi-13m6',
    name: 'Semi-trailer 13.6 m (curtainsider, 33 euro pallets)',
    kind: 'truck',
    lengthMm: 13_600,
    widthMm: 2480,
    heightMm: 2700,
    payloadKg: 24_000,
    source: `${ROAD}; length and width within EU Directive 96/53/EC`,
  },
  {
    code: 'flatrack-40',
    name: "40' flat rack (open deck, ends up)",
    kind: 'breakbulk',
    lengthMm: 12_080,
    widthMm: 2420,
    heightMm: 1955,
    payloadKg: 39_000,
    source: `${ISO}; open deck: the height is the limit the load may not pass`,
  },
];

export function standardSpace(code: string): StandardSpace | undefined {
  return STANDARD_SPACES.find((space) => space.code === code);
}

/** A standard space as the API answers it. */
export function standardView(space: StandardSpace): SpaceView {
  return {
    code: space.code,
    id: null,
    name: space.name,
    kind: space.kind,
    length_mm: space.lengthMm,
    width_mm: space.widthMm,
    height_mm: space.heightMm,
    payload_kg: space.payloadKg,
    door: space.door ? { width_mm: space.door.widthMm, height_mm: space.door.heightMm } : null,
    cross_section: space.crossSection ?? null,
    axles: null,
    reach_limit_mm: space.byHand?.reachLimitMm ?? null,
    max_stack_ratio: space.byHand?.maxStackRatio ?? null,
    load_at_door: space.byHand?.loadAtDoor ?? false,
    source: space.source,
  };
}

/** A space, as answered, as the loading solver takes it. */
export function loadingSpaceOf(space: SpaceView): LoadingSpace {
  return {
    length: space.length_mm,
    width: space.width_mm,
    height: space.height_mm,
    ...(space.payload_kg !== null && { payloadKg: space.payload_kg }),
    ...(space.cross_section && { crossSection: space.cross_section as Array<[number, number]> }),
    ...(space.axles && {
      axles: space.axles.map((axle) => ({ positionMm: axle.position_mm, maxLoadKg: axle.max_load_kg })) as [
        Axle,
        Axle,
      ],
    }),
    ...(space.reach_limit_mm !== null && { reachLimit: space.reach_limit_mm }),
    ...(space.max_stack_ratio !== null && { stability: { maxStackRatio: space.max_stack_ratio } }),
    ...(space.load_at_door && { loadAtDoor: true }),
  };
}
