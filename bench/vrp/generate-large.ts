/**
 * Writes a large VRPTW instance in Solomon's text format (the same reader, checker and solver
 * input as the 56 Solomon instances), for the scale benchmark: customers half in clusters, half
 * spread (like Solomon's RC class), windows on half of them, each window reachable from the
 * depot and leaving time to return, so that every customer can be served.
 *
 *   node --import tsx bench/vrp/generate-large.ts [--customers 1000] [--seed 1] > bench/vrp/data/RC1000_1.txt
 */
import { parseArgs } from 'node:util';
import { mulberry32 } from '../../src/platform/random.ts';

const { values } = parseArgs({
  options: { customers: { type: 'string', default: '1000' }, seed: { type: 'string', default: '1' } },
});
const customers = Number(values.customers);
const random = mulberry32(Number(values.seed));
const SIDE = 200; // coordinates in [0, SIDE]
const HORIZON = 1500; // the depot closes then; travel time equals distance
const CAPACITY = 200;
const SERVICE = 10;
const depot = { x: SIDE / 2, y: SIDE / 2 };
const clusters = Array.from({ length: 12 }, () => ({
  x: 15 + random() * (SIDE - 30),
  y: 15 + random() * (SIDE - 30),
}));

const rows: string[] = [];
const pad = (value: number | string, width: number) => String(value).padStart(width);
rows.push(
  `RC${customers}_${values.seed}`,
  '',
  'VEHICLE',
  'NUMBER     CAPACITY',
  `${pad(customers / 4, 5)}${pad(CAPACITY, 12)}`,
  '',
);
rows.push('CUSTOMER', 'CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME', ' ');
const row = (id: number, x: number, y: number, demand: number, ready: number, due: number, service: number) =>
  `${pad(id, 5)}${pad(x, 10)}${pad(y, 10)}${pad(demand, 10)}${pad(ready, 12)}${pad(due, 10)}${pad(service, 10)}`;
rows.push(row(0, depot.x, depot.y, 0, 0, HORIZON, 0));
for (let id = 1; id <= customers; id++) {
  let x: number;
  let y: number;
  if (random() < 0.5) {
    const cluster = clusters[Math.floor(random() * clusters.length)]!;
    x = Math.round(Math.min(SIDE, Math.max(0, cluster.x + (random() - 0.5) * 24)));
    y = Math.round(Math.min(SIDE, Math.max(0, cluster.y + (random() - 0.5) * 24)));
  } else {
    x = Math.round(random() * SIDE);
    y = Math.round(random() * SIDE);
  }
  const demand = 1 + Math.floor(random() * 30);
  const out = Math.ceil(Math.hypot(x - depot.x, y - depot.y));
  let ready = 0;
  let due = HORIZON - out - SERVICE;
  if (random() < 0.5) {
    // A window 30 to 150 wide, within [out, HORIZON - out - SERVICE]: a lone round trip keeps it.
    const width = 30 + Math.floor(random() * 121);
    const latestStart = HORIZON - out - SERVICE - width;
    ready = out + Math.floor(random() * Math.max(1, latestStart - out));
    due = ready + width;
  }
  rows.push(row(id, x, y, demand, ready, due, SERVICE));
}
process.stdout.write(`${rows.join('\n')}\n`);
