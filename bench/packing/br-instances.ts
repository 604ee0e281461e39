/**
 * The Bischoff and Ratcliff container loading problems BR1-BR7 (OR-Library thpack1-thpack7),
 * as stored in data/br1-7.txt (see data/SOURCE.md for the format and where it comes from).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BrBoxType {
  dims: [number, number, number];
  mayBeVertical: [boolean, boolean, boolean];
  quantity: number;
}

export interface BrProblem {
  /** 1..7 */
  brClass: number;
  /** 1..100 within its class. */
  number: number;
  seed: number;
  container: [number, number, number];
  types: BrBoxType[];
  /** EB-AFIT's container volume use in percent, from the file's extra line. */
  ebAfitPercent: number;
}

export const BR_FILE = join(dirname(fileURLToPath(import.meta.url)), 'data', 'br1-7.txt');
export const TYPES_PER_CLASS = [3, 5, 8, 10, 12, 15, 20];

export function readBrProblems(file = BR_FILE): BrProblem[] {
  const lines = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const numbers = (line: string | undefined) => (line ?? '').split(/\s+/).map(Number);
  const problems: BrProblem[] = [];
  let at = 0;
  while (at < lines.length) {
    const [number, seed] = numbers(lines[at++]);
    const extra = numbers(lines[at++]);
    const [l, w, h] = numbers(lines[at++]);
    const count = numbers(lines[at++])[0]!;
    const types: BrBoxType[] = [];
    for (let t = 0; t < count; t++) {
      const [, d1, f1, d2, f2, d3, f3, quantity] = numbers(lines[at++]);
      types.push({
        dims: [d1!, d2!, d3!],
        mayBeVertical: [f1 === 1, f2 === 1, f3 === 1],
        quantity: quantity!,
      });
    }
    const brClass = Math.floor(problems.length / 100) + 1;
    if (count !== TYPES_PER_CLASS[brClass - 1]) {
      throw new Error(
        `problem ${problems.length + 1}: ${count} box types, BR${brClass} has ${TYPES_PER_CLASS[brClass - 1]}`,
      );
    }
    problems.push({
      brClass,
      number: number!,
      seed: seed!,
      container: [l!, w!, h!],
      types,
      ebAfitPercent: extra[3]!,
    });
  }
  if (problems.length !== 700) throw new Error(`${problems.length} problems, expected 700`);
  return problems;
}
