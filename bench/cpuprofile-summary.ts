/**
 * Where a CPU profile of bench/tracking.ts (CPU_PROFILE=...) spent the main thread's time, by
 * part: each sample goes to the nearest frame on its stack that belongs to a known part, and
 * socket writes to the side they were writing to (PostgreSQL or an HTTP answer).
 *
 *   node --import tsx bench/cpuprofile-summary.ts /tmp/tracking-reads-service-1.cpuprofile
 */
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const PARTS: Array<[RegExp, string]> = [
  [
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-date|postgres-array|postgres-interval)\//,
    'pg driver (protocol, row parsing, dates, jsonb)',
  ],
  [/node_modules\/kysely\//, 'Kysely (query building, compiling)'],
  [/src\/modules\/tracking\//, 'tracking module (rows to events, public view, projection, validator)'],
  [/node_modules\/zod\//, 'zod (input and output contracts)'],
  [/node_modules\/(prom-client|tdigest|bintrees)\/|src\/platform\/metrics/, 'metrics (prom-client)'],
  [/src\/platform\/|src\/doors\//, 'executor, REST door, HTTP shell hooks'],
  [
    /node_modules\/(fastify|find-my-way|@fastify|light-my-request|avvio|pino|secure-json-parse|fast-json-stringify)\//,
    'Fastify',
  ],
  [/bench\//, 'bench (bare route, IPC to the load generator)'],
];

const profile = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

function* stack(id: number) {
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at))
    yield nodes.get(at)!.callFrame;
}

function partOf(id: number): string {
  const leaf = nodes.get(id)!.callFrame.functionName;
  if (leaf === '(garbage collector)') return 'garbage collection';
  if (leaf === '(idle)') return 'idle';
  if (leaf === '(program)') return 'native, unattributed';
  if (leaf === 'dispatch') return 'the CPU profiler itself';
  if (/^writev|^writeBuffer|^write(Utf8|Latin1)String/.test(leaf)) {
    for (const frame of stack(id)) {
      if (/node_modules\/pg\/lib\//.test(frame.url)) return 'socket writes to PostgreSQL (syscalls)';
      if (/_http_outgoing|node_modules\/fastify\//.test(frame.url))
        return 'socket writes of HTTP answers (syscalls)';
    }
    return 'socket writes (other)';
  }
  for (const frame of stack(id)) {
    for (const [pattern, part] of PARTS) if (pattern.test(frame.url)) return part;
  }
  return 'Node internals (HTTP parsing, streams, timers)';
}

const totals = new Map<string, number>();
let total = 0;
for (const [index, id] of profile.samples.entries()) {
  const delta = profile.timeDeltas[index] ?? 0;
  total += delta;
  const part = partOf(id);
  totals.set(part, (totals.get(part) ?? 0) + delta);
}
const lines = [...totals]
  .sort((a, b) => b[1] - a[1])
  .map(([part, time]) => `${((time / total) * 100).toFixed(1).padStart(5)} %  ${part}`);
process.stdout.write(`${(total / 1e6).toFixed(1)} s of the main thread\n${lines.join('\n')}\n`);
