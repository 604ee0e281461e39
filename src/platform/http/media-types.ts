/**
 * Content negotiation for operations that can answer in media types besides their JSON answer
 * (Operation.representations). Only an explicit media type picks one: wildcards and plain
 * `application/json` leave the operation's default JSON answer. A range with a `profile` (a
 * space-separated list, as JSON-LD uses it) matches an offered type whose profiles it holds all of.
 * The `negotiator` package, which picks the language, does neither: it compares parameters as whole
 * strings, and lets a wildcard or a bare `application/ld+json` pick an offered type.
 */
export function preferredRepresentation(
  accept: string | undefined,
  offered: readonly string[] | undefined,
): string | undefined {
  if (!accept || !offered?.length) return undefined;
  const ranges = accept
    .split(',')
    .map((range, order) => parseMediaRange(range, order))
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  for (const range of ranges) {
    const chosen = offered.find((type) => matches(range, parseMediaRange(type)));
    if (chosen) return chosen;
  }
  return undefined;
}

interface MediaRange {
  type: string;
  profiles: string[];
  quality: number;
  order: number;
}

function matches(range: MediaRange, offered: MediaRange): boolean {
  if (range.type !== offered.type) return false;
  return offered.profiles.every((profile) => range.profiles.includes(profile));
}

function parseMediaRange(text: string, order = 0): MediaRange {
  const [type = '', ...parameters] = text.split(';');
  const range: MediaRange = { type: type.trim().toLowerCase(), profiles: [], quality: 1, order };
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0) continue;
    const key = parameter.slice(0, equals).trim().toLowerCase();
    const value = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (key === 'q') range.quality = Number(value) || 0;
    if (key === 'profile') range.profiles = value.split(/\s+/).filter(Boolean);
  }
  return range;
}
