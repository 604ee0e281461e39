/**
 * Route colours that stay apart for readers with any common colour-vision deficiency: Paul Tol's
 * "bright" and "muted" qualitative schemes (personal.sron.nl/~pault). Lines and dots are drawn with
 * a dark outline, so the light ones stay visible on a light map. A day with more routes than colours
 * repeats them; the lists show each route's number beside its colour, so no route relies on colour
 * alone.
 */
export const ROUTE_COLOURS = [
  '#4477aa',
  '#ee6677',
  '#228833',
  '#aa3377',
  '#332288',
  '#117733',
  '#882255',
  '#44aa99',
  '#999933',
  '#cc6677',
  '#66ccee',
  '#ccbb44',
] as const;

export function routeColour(index: number): string {
  return ROUTE_COLOURS[index % ROUTE_COLOURS.length]!;
}
