/**
 * A load plan as a picture (SVG), because people look at a load plan rather than read it: the
 * space in isometric view from above the door corner, its outline (with an envelope's contour),
 * every box drawn back to front with its three visible faces shaded, coloured by the stop it is
 * unloaded at (or by box type on a one-stop load) and labelled with it, the door marked, and a
 * legend whose colours never repeat.
 */

export interface PictureBox {
  x: number;
  y: number;
  z: number;
  length: number;
  width: number;
  height: number;
  /** What the box's colour tells: its stop, or its type. */
  group: string;
  /** Written on the box's top: its stop's number. */
  label?: string;
  /** Not loaded yet (a picture of the loading's first steps): coloured and listed, not drawn. */
  later?: boolean;
}

export interface PictureSpace {
  name: string;
  length: number;
  width: number;
  height: number;
  crossSection?: Array<[number, number]>;
}

const COS = Math.cos(Math.PI / 6);
const SIN = 0.5;
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
const WIDTH = 960;
const MARGIN = 24;
/** A legend row's height, and how many entries a row holds. */
const LEGEND = 28;
const LEGEND_ROW = 12;
const DOOR = '#c0392b';

/**
 * The colour of each group: the palette while it has enough, else hues spread by the golden angle
 * (each its own, neighbours far apart), so no two groups share one.
 */
function coloursOf(groups: readonly string[]): Map<string, string> {
  if (groups.length <= PALETTE.length) return new Map(groups.map((group, index) => [group, PALETTE[index]!]));
  return new Map(
    groups.map((group, index) => [group, hslToHex((index * 137.508) % 360, 0.55, 0.55 - (index % 3) * 0.08)]),
  );
}

function hslToHex(hue: number, saturation: number, lightness: number): string {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** Shades a #rrggbb colour by a factor (below 1 darker). */
function shade(colour: string, factor: number): string {
  const channel = (at: number) =>
    Math.max(0, Math.min(255, Math.round(Number.parseInt(colour.slice(at, at + 2), 16) * factor)))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

export function loadPictureSvg(space: PictureSpace, boxes: readonly PictureBox[], title: string): string {
  // Isometric: x runs down-right, y down-left, z up; the viewer sees the tops and the x = far, y = far faces.
  const project = (x: number, y: number, z: number): [number, number] => [(x - y) * COS, (x + y) * SIN - z];
  const corners: Array<[number, number]> = [];
  for (const x of [0, space.length])
    for (const y of [0, space.width]) for (const z of [0, space.height]) corners.push(project(x, y, z));
  const minU = Math.min(...corners.map((c) => c[0]));
  const maxU = Math.max(...corners.map((c) => c[0]));
  const minV = Math.min(...corners.map((c) => c[1]));
  const maxV = Math.max(...corners.map((c) => c[1]));
  const scale = (WIDTH - 2 * MARGIN) / (maxU - minU);
  const groups = [...new Set(boxes.map((box) => box.group))].sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }),
  );
  const legendRows = Math.max(1, Math.ceil(groups.length / LEGEND_ROW));
  const height = Math.ceil((maxV - minV) * scale + 2 * MARGIN + LEGEND * (1 + legendRows));
  const point = (x: number, y: number, z: number) => {
    const [u, v] = project(x, y, z);
    return `${((u - minU) * scale + MARGIN).toFixed(1)},${((v - minV) * scale + MARGIN + LEGEND).toFixed(1)}`;
  };
  const polygon = (points: string[], fill: string, extra = '') =>
    `<polygon points="${points.join(' ')}" fill="${fill}"${extra}/>`;

  const colourOf = coloursOf(groups);
  const parts: string[] = [];
  // The outline of the space: its cross-section at both ends and the edges joining them.
  const outline = space.crossSection ?? [
    [0, 0],
    [space.width, 0],
    [space.width, space.height],
    [0, space.height],
  ];
  for (const x of [0, space.length]) {
    parts.push(
      polygon(
        outline.map(([y, z]) => point(x, y, z)),
        'none',
        ' stroke="#555" stroke-width="1" stroke-dasharray="4 3"',
      ),
    );
  }
  for (const [y, z] of outline) {
    parts.push(
      `<polyline points="${point(0, y, z)} ${point(space.length, y, z)}" fill="none" stroke="#999"/>`,
    );
  }
  // The door: the end at x = length, where the load comes off.
  parts.push(
    polygon(
      outline.map(([y, z]) => point(space.length, y, z)),
      'none',
      ` stroke="${DOOR}" stroke-width="2.5"`,
    ),
  );
  const [doorU, doorV] = point(space.length, space.width, 0).split(',').map(Number) as [number, number];
  parts.push(
    `<text x="${(doorU + 6).toFixed(1)}" y="${(doorV + 16).toFixed(1)}" fill="${DOOR}" font-weight="bold">door</text>`,
  );
  // Back to front: a box nearer the viewer (larger x + y + z) is drawn after those it may hide.
  const ordered = boxes
    .filter((box) => !box.later)
    .sort((a, b) => a.x + a.y + a.z - (b.x + b.y + b.z) || a.z - b.z || a.x - b.x || a.y - b.y);
  for (const box of ordered) {
    const colour = colourOf.get(box.group)!;
    const x0 = box.x;
    const y0 = box.y;
    const z0 = box.z;
    const x1 = x0 + box.length;
    const y1 = y0 + box.width;
    const z1 = z0 + box.height;
    const stroke = ' stroke="#222" stroke-width="0.5"';
    parts.push(
      polygon([point(x0, y0, z1), point(x1, y0, z1), point(x1, y1, z1), point(x0, y1, z1)], colour, stroke),
      polygon(
        [point(x1, y0, z0), point(x1, y1, z0), point(x1, y1, z1), point(x1, y0, z1)],
        shade(colour, 0.8),
        stroke,
      ),
      polygon(
        [point(x0, y1, z0), point(x1, y1, z0), point(x1, y1, z1), point(x0, y1, z1)],
        shade(colour, 0.62),
        stroke,
      ),
    );
    if (box.label) {
      // On the top face's centre, sized to the face.
      const [u, v] = point((x0 + x1) / 2, (y0 + y1) / 2, z1)
        .split(',')
        .map(Number) as [number, number];
      const size = Math.max(7, Math.min(14, Math.min(box.length, box.width) * scale * 0.45));
      parts.push(
        `<text x="${u.toFixed(1)}" y="${(v + size / 3).toFixed(1)}" font-size="${size.toFixed(0)}" text-anchor="middle" fill="#fff" stroke="#222" stroke-width="0.6" paint-order="stroke">${escapeXml(box.label)}</text>`,
      );
    }
  }
  const legendTop = height - LEGEND * legendRows;
  const legend = groups
    .map((group, index) => {
      const x = MARGIN + (index % LEGEND_ROW) * 76;
      const y = legendTop + Math.floor(index / LEGEND_ROW) * LEGEND;
      return `<rect x="${x}" y="${y}" width="12" height="12" fill="${colourOf.get(group)}"/><text x="${x + 16}" y="${y + 11}">${escapeXml(group)}</text>`;
    })
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(title)}</title>`,
    '<rect width="100%" height="100%" fill="#fff"/>',
    `<text x="${MARGIN}" y="${MARGIN}" font-size="14">${escapeXml(title)}</text>`,
    ...parts,
    legend,
    '</svg>',
  ].join('\n');
}
