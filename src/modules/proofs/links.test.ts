import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../platform/clock.ts';
import { PROOF_LINK_LIFETIME_SECONDS, ProofLinks, SECRET_FILE } from './links.ts';

const BASE = 'https://tms.example.com';

function partsOf(url: string) {
  const link = new URL(url);
  return {
    id: Number(link.pathname.split('/').at(-1)),
    expires: Number(link.searchParams.get('expires')),
    signature: link.searchParams.get('signature')!,
  };
}

describe('proof links', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-links-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('open for 10 to 15 minutes, the same within a 5-minute period', async () => {
    const clock = new ManualClock(new Date('2026-11-03T10:02:30Z'));
    const links = new ProofLinks(clock, { secret: 'x'.repeat(32), dataDir, baseUrl: BASE });
    const first = await links.signedLink(7);
    assert.equal(first.expiresAt.toISOString(), '2026-11-03T10:15:00.000Z');
    const period = links.linkPeriod();
    clock.advance(2 * 60_000);
    assert.equal((await links.signedLink(7)).url, first.url);
    assert.equal(links.linkPeriod(), period);
    clock.advance(60_000);
    assert.notEqual(links.linkPeriod(), period, 'a new period, new links');
    const { id, expires, signature } = partsOf(first.url);
    assert.equal(await links.secondsLeft(id, expires, signature), 9 * 60 + 30);
    assert.equal(await links.secondsLeft(8, expires, signature), null, 'another id');
    clock.set(first.expiresAt);
    assert.equal(await links.secondsLeft(id, expires, signature), null, 'expired');
  });

  it('refuses an expiry further away than a link ever lives, even well signed', async () => {
    const clock = new ManualClock(new Date('2026-11-03T10:00:00Z'));
    const links = new ProofLinks(clock, { secret: 'y'.repeat(32), dataDir, baseUrl: BASE });
    const { expires } = partsOf((await links.signedLink(1)).url);
    clock.advance(-60_000);
    const early = partsOf((await links.signedLink(1)).url);
    assert.ok(expires - early.expires <= PROOF_LINK_LIFETIME_SECONDS);
    clock.set(new Date('2026-11-03T09:40:00Z'));
    assert.equal(
      await links.secondsLeft(1, expires, partsOf((await links.signedLink(1)).url).signature),
      null,
    );
  });

  it('keeps a generated secret in the data directory, shared by every instance that reads it', async () => {
    const clock = new ManualClock(new Date('2026-11-03T10:00:00Z'));
    const one = new ProofLinks(clock, { secret: undefined, dataDir, baseUrl: BASE });
    const two = new ProofLinks(clock, { secret: undefined, dataDir, baseUrl: BASE });
    const [a, b] = await Promise.all([one.signedLink(3), two.signedLink(3)]);
    assert.equal(a.url, b.url);
    const file = path.join(dataDir, SECRET_FILE);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.match(await readFile(file, 'utf8'), /^[0-9a-f]{64}\n$/);
    const configured = new ProofLinks(clock, { secret: 'z'.repeat(32), dataDir, baseUrl: BASE });
    assert.notEqual((await configured.signedLink(3)).url, a.url, 'a configured secret wins');
  });
});
