import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OSRM_TABLE_SIZE, OsrmRoadNetwork, StraightLines, straightLineMatrix } from './roads.ts';
import { haversineMeters } from './solver/distance.ts';
import type { Point } from './solver/types.ts';

/** A stand-in engine: the road between two points is their straight line plus 1 km. */
const road = (p: number[], q: number[]) =>
  p[0] === q[0] && p[1] === q[1]
    ? 0
    : haversineMeters({ lat: p[1]!, lng: p[0]! }, { lat: q[1]!, lng: q[0]! }) + 1000;

describe('OsrmRoadNetwork', () => {
  let engine: http.Server;
  let url: string;
  const requests: Array<{ coordinates: number; cells: number }> = [];

  before(async () => {
    engine = http.createServer((request, response) => {
      const parsed = new URL(request.url!, 'http://x');
      const coordinates = parsed.pathname
        .replace('/table/v1/driving/', '')
        .split(';')
        .map((pair) => pair.split(',').map(Number));
      const all = coordinates.map((_, index) => index);
      const indices = (name: string) => parsed.searchParams.get(name)?.split(';').map(Number) ?? all;
      const sources = indices('sources');
      const destinations = indices('destinations');
      requests.push({ coordinates: coordinates.length, cells: sources.length * destinations.length });
      if (sources.length * destinations.length > OSRM_TABLE_SIZE ** 2) {
        response.writeHead(400).end('{"code":"TooBig"}');
        return;
      }
      const distances = sources.map((s) => destinations.map((d) => road(coordinates[s]!, coordinates[d]!)));
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          code: 'Ok',
          distances,
          durations: distances.map((row) => row.map((m) => m / 10)),
        }),
      );
    });
    await new Promise<void>((resolve) => engine.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(engine.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => engine.close(() => resolve())));

  const points = (count: number): Point[] =>
    Array.from({ length: count }, (_, i) => ({ lat: 31 + i * 0.001, lng: 121 + (i % 7) * 0.002 }));

  it('asks a large matrix in blocks within the table size and assembles them', async () => {
    const roads = new OsrmRoadNetwork({
      url,
      allow: { loopback: true, privateNetworks: false },
      timeoutMs: 5000,
    });
    const many = points(150);
    requests.length = 0;
    const matrix = await roads.matrix({ businessId: 1, date: '2026-11-02', points: many });
    assert.equal(matrix.source, 'osrm');
    assert.equal(requests.length, 4, '2 source blocks by 2 destination blocks');
    assert.ok(requests.every((r) => r.cells <= OSRM_TABLE_SIZE ** 2));
    for (const [i, j] of [
      [0, 149],
      [149, 0],
      [120, 101],
      [3, 99],
    ] as const) {
      const expected = road([many[i]!.lng, many[i]!.lat], [many[j]!.lng, many[j]!.lat]);
      assert.ok(Math.abs(matrix.meters[i]![j]! - expected) < 1e-6, `${i} to ${j}`);
      assert.equal(matrix.seconds[i]![j], Math.ceil(expected / 10));
    }
    assert.equal(matrix.meters[5]![5], 0);

    // Some of the same points, in another order: from the cache.
    const some = [many[140]!, many[2]!, many[77]!];
    const again = await roads.matrix({ businessId: 1, date: '2026-11-02', points: some });
    assert.equal(requests.length, 4);
    assert.equal(again.meters[0]![1], matrix.meters[140]![2]);
    // Another business's day is its own.
    await roads.matrix({ businessId: 2, date: '2026-11-02', points: some });
    assert.equal(requests.length, 5);
  });

  it('falls back to straight lines when the engine is refused or away', async () => {
    const settings = { circuity: 1.5, speedMetersPerSecond: 10 };
    const few = points(3);
    const refused = new OsrmRoadNetwork({
      url,
      allow: { loopback: false, privateNetworks: false },
      timeoutMs: 5000,
    });
    const answer = await refused.matrix({
      businessId: 1,
      date: '2026-11-03',
      points: few,
      straightLine: settings,
    });
    assert.deepEqual(answer, straightLineMatrix(few, settings));
    assert.equal(answer.source, 'straight_line');
  });

  it('StraightLines multiplies by the circuity and drives at the speed', async () => {
    const [a, b] = points(2);
    const matrix = await new StraightLines().matrix({
      businessId: 1,
      date: '2026-11-02',
      points: [a!, b!],
      straightLine: { circuity: 1.3, speedMetersPerSecond: 10 },
    });
    assert.ok(Math.abs(matrix.meters[0]![1]! - haversineMeters(a!, b!) * 1.3) < 1e-9);
    assert.equal(matrix.seconds[0]![1], Math.ceil(matrix.meters[0]![1]! / 10));
  });
});
