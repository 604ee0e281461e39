import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BoardWorld, boardCalls, boardWorld } from './support/route-board.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const PAIRS = 20;

describe('the driver route board under concurrent claims', () => {
  let server: TestServer;
  let world: BoardWorld;
  let calls: ReturnType<typeof boardCalls>;

  before(async () => {
    server = await startTestServer();
    world = await boardWorld(server, 'races', 2);
    calls = boardCalls(world);
    for (const route of [world.routes.morning1, world.routes.morning2]) {
      const published = await calls.publish(route.id);
      assert.equal(published.status, 200, JSON.stringify(published.body));
    }
  });
  after(() => server?.close());

  it(`lets a driver claiming two overlapping routes at once hold one of them, ${PAIRS} times out of ${PAIRS}`, async () => {
    const overlapping = [world.routes.morning1.id, world.routes.morning2.id];
    for (let pair = 0; pair < PAIRS; pair++) {
      const driver = world.racers[pair % world.racers.length]!;
      const answers = await Promise.all(overlapping.map((routeId) => calls.claim(routeId, driver)));
      const shown = answers.map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`).join('\n');
      const won = overlapping.filter((_, at) => answers[at]!.status === 200);
      assert.equal(won.length, 1, `pair ${pair + 1}:\n${shown}`);
      const refused = answers.find((answer) => answer.status !== 200)!;
      assert.equal(refused.status, 409, `pair ${pair + 1}:\n${shown}`);
      assert.equal(refused.body.error_code, 'BOARD_WINDOW_OVERLAP', `pair ${pair + 1}:\n${shown}`);
      assert.equal(refused.body.details.other_route_id, won[0]);
      // Staff take the route back to the board: the next pair finds both open again.
      const released = await calls.release(won[0]!);
      assert.equal(released.status, 200, JSON.stringify(released.body));
      assert.equal(released.body.route.state, 'open');
    }
  });
});
