import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { depotWithTwoFleets } from './support/contractors.ts';
import { createTenant, DROPOFF, login, PASSWORD, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { pngImage } from './support/proofs.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const png = pngImage;

/** A smallest valid baseline JPEG: one white pixel. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

const DATE = '2026-11-03';
const PUBLIC_BASE_URL = loadConfig({}).publicBaseUrl;

describe('proofs of delivery: upload, status change, signed links on the public tracking', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let driver: string;
  let otherDriver: string;
  let foreignDriver: string;
  let dataDir: string;
  /** On the driver's route: delivered with proofs. */
  let delivered: { id: number; number: string };
  /** On the driver's route too: never delivered. */
  let pending: { id: number; number: string };
  const proofs: Record<string, { id: number; bytes: Buffer }> = {};

  const upload = (
    orderId: number,
    query: string,
    body: Buffer | string,
    type: string,
    token: string,
    lang = 'en',
  ) =>
    fetch(`${server.baseUrl}/api/v1/driver/orders/${orderId}/proofs?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'accept-language': lang },
      body,
    }).then(
      async (response): Promise<Omit<Answer, 'headers'>> => ({
        status: response.status,
        body: await response.json(),
      }),
    );

  /** Links name the service's public address (PUBLIC_BASE_URL); the test server listens elsewhere. */
  const open = (link: string) => {
    const url = new URL(link);
    assert.equal(url.origin, PUBLIC_BASE_URL);
    return fetch(server.baseUrl + url.pathname + url.search);
  };

  const createOrder = async (ref: string) => {
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: ref, scheduled_date: DATE, dropoff: DROPOFF },
      { token: admin },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    return { id: created.body.order_id as number, number: created.body.tracking_number as string };
  };

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-proofs-'));
    server = await startTestServer({
      dataDir,
      storage: { kind: 'disk', directory: path.join(dataDir, 'files') },
    });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'pod');
    admin = await login(api, tenant.emails.client_admin);
    const { ownDriver } = await depotWithTwoFleets(server, api, tenant, admin);
    delivered = await createOrder('POD-1');
    pending = await createOrder('POD-2');
    const built = await api.post(
      '/api/v3/client/build-route',
      { date: DATE, driver_ids: [ownDriver] },
      { token: admin },
    );
    assert.equal(built.body.totals.assigned, 2, JSON.stringify(built.body));
    driver = await login(api, tenant.emails.driver);
    const { accounts } = server.app.services;
    await accounts.createUser(server.db, {
      kind: 'driver',
      email: 'other-driver@pod.test',
      name: 'Other driver',
      password: PASSWORD,
      businessId: tenant.businessId,
    });
    otherDriver = await login(api, 'other-driver@pod.test');
    const foreign = await createTenant(server.db, server.app.services, 'elsewhere');
    foreignDriver = await login(api, foreign.emails.driver);
  });
  after(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('takes a PNG signature and a JPEG photo from the driver whose route holds the order', async () => {
    const signature = png(120, 40);
    const signed = await upload(delivered.id, 'kind=signature', signature, 'image/png', driver);
    assert.equal(signed.status, 200, JSON.stringify(signed.body));
    assert.equal(signed.body.proof.kind, 'signature');
    assert.equal(signed.body.proof.order_id, delivered.id);
    assert.equal(signed.body.proof.content_type, 'image/png');
    assert.equal(signed.body.proof.size_bytes, signature.length);
    assert.equal(signed.body.proof.width, 120);
    assert.equal(signed.body.proof.height, 40);
    assert.equal(signed.body.proof.uploaded_by, tenant.userIds.driver);
    assert.match(signed.body.proof.sha256, /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(signed.body).includes('proofs/'), 'the storage key stays inside');
    proofs.signature = { id: signed.body.proof.id, bytes: signature };

    const photo = await upload(delivered.id, 'kind=photo&client_id=photo-1', JPEG, 'image/jpeg', driver);
    assert.equal(photo.status, 200, JSON.stringify(photo.body));
    assert.deepEqual([photo.body.proof.width, photo.body.proof.height], [1, 1]);
    proofs.photo = { id: photo.body.proof.id, bytes: JPEG };
    const pendingPhoto = await upload(pending.id, 'kind=photo', png(8, 8), 'image/png', driver);
    assert.equal(pendingPhoto.status, 200);
    proofs.pendingPhoto = { id: pendingPhoto.body.proof.id, bytes: png(8, 8) };
  });

  it('answers the first upload again for the same client_id', async () => {
    const again = await upload(delivered.id, 'kind=photo&client_id=photo-1', png(5, 5), 'image/png', driver);
    assert.equal(again.status, 200);
    assert.equal(again.body.proof.id, proofs.photo!.id);
    assert.equal(again.body.proof.content_type, 'image/jpeg');
  });

  it('lets staff upload for any order of the business', async () => {
    const staff = await upload(pending.id, 'kind=photo', png(2, 2), 'image/png', admin);
    assert.equal(staff.status, 200, JSON.stringify(staff.body));
    assert.equal(staff.body.proof.uploaded_by, tenant.userIds.client_admin);
  });

  it('refuses text claiming to be a PNG, another type, and a body over 8 MiB, in the caller language', async () => {
    const text = await upload(
      delivered.id,
      'kind=photo',
      'not an image at all, honest',
      'image/png',
      driver,
      'fr',
    );
    assert.equal(text.status, 422);
    assert.equal(text.body.error_code, 'PROOF_NOT_AN_IMAGE');
    assert.match(text.body.message, /^Le corps n’est pas une image image\/png/);
    const jpegAsPng = await upload(delivered.id, 'kind=photo', JPEG, 'image/png', driver);
    assert.equal(jpegAsPng.body.error_code, 'PROOF_NOT_AN_IMAGE');
    const gif = await upload(delivered.id, 'kind=photo', Buffer.from('GIF89a'), 'image/gif', driver);
    assert.equal(gif.status, 415);
    assert.equal(gif.body.error_code, 'UNSUPPORTED_PROOF_TYPE');
    const huge = png(1, 1);
    huge.writeUInt32BE(9000, 16);
    const tooWide = await upload(delivered.id, 'kind=photo', huge, 'image/png', driver);
    assert.equal(tooWide.body.error_code, 'PROOF_NOT_AN_IMAGE');
    const oversize = await upload(
      delivered.id,
      'kind=photo',
      Buffer.concat([png(1, 1), Buffer.alloc(8 * 1024 * 1024)]),
      'image/png',
      driver,
    );
    assert.equal(oversize.status, 413);
    assert.equal(oversize.body.error_code, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(oversize.body.details, { limit_bytes: 8 * 1024 * 1024 });
  });

  it("answers 404 to another driver, and to another business's driver", async () => {
    for (const token of [otherDriver, foreignDriver]) {
      const refused = await upload(delivered.id, 'kind=photo', png(3, 3), 'image/png', token);
      assert.equal(refused.status, 404, JSON.stringify(refused.body));
      assert.equal(refused.body.error_code, 'ORDER_NOT_FOUND');
    }
  });

  it("refuses a status change naming another order's proof, or a photo as the signature", async () => {
    await move(delivered.id, { status: 'PICKED_UP' });
    await move(delivered.id, { status: 'OUT_FOR_DELIVERY' });
    for (const proof_of_delivery of [
      { signature_proof_id: proofs.pendingPhoto!.id },
      { photo_proof_ids: [proofs.photo!.id, proofs.pendingPhoto!.id] },
      { signature_proof_id: proofs.photo!.id },
      { photo_proof_ids: [999_999] },
    ]) {
      const refused = await api.post(
        `/api/v1/client/orders/${delivered.id}/status`,
        { status: 'DELIVERED', proof_of_delivery },
        { token: admin },
      );
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.error_code, 'PROOF_NOT_FOUND');
    }
    const order = await api.get(`/api/v1/client/orders/${delivered.id}`, { token: admin });
    assert.equal(order.body.order.status, 'OUT_FOR_DELIVERY', 'a refused change changes nothing');
  });

  it('records the proofs of a delivery and shows them on the public tracking through signed links', async () => {
    await move(delivered.id, {
      status: 'DELIVERED',
      proof_of_delivery: {
        recipient: 'Léa Martin',
        signature_proof_id: proofs.signature!.id,
        photo_proof_ids: [proofs.photo!.id],
      },
    });
    const answer = await api.get(`/api/v1/tracking/${delivered.number}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const pod = answer.body.proof_of_delivery;
    assert.equal(pod.recipient, 'Léa M.');
    const linkShape = new RegExp(
      `^${PUBLIC_BASE_URL}/api/v1/proofs/(\\d+)\\?expires=(\\d+)&signature=[\\w-]{43}$`,
    );
    assert.equal(linkShape.exec(pod.signature_url)?.[1], String(proofs.signature!.id));
    assert.equal(pod.photo_urls.length, 1);
    assert.equal(linkShape.exec(pod.photo_urls[0])?.[1], String(proofs.photo!.id));
    const expiresAt = Date.parse(pod.links_expire_at);
    const lifetime = expiresAt - server.clock.now().getTime();
    assert.ok(lifetime > 10 * 60_000 && lifetime <= 15 * 60_000, `links live 10 to 15 minutes: ${lifetime}`);
    assert.ok(!JSON.stringify(answer.body).includes(`proofs/${tenant.businessId}/`), 'never a storage key');

    for (const [link, proof] of [
      [pod.signature_url, proofs.signature!],
      [pod.photo_urls[0], proofs.photo!],
    ] as const) {
      const file = await open(link);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), proof === proofs.signature ? 'image/png' : 'image/jpeg');
      assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
      const maxAge = Number(/^private, max-age=(\d+)$/.exec(file.headers.get('cache-control') ?? '')?.[1]);
      assert.ok(maxAge > 0 && maxAge <= 15 * 60, `cached no longer than the link lives: ${maxAge}`);
      assert.ok(Buffer.from(await file.arrayBuffer()).equals(proof.bytes), 'the exact bytes uploaded');
    }

    // The authenticated timeline records the proofs by id, never by where they are stored.
    const timeline = await api.get(`/api/v1/client/trackings/${delivered.number}`, { token: admin });
    assert.equal(timeline.body.view, 'own');
    const event = timeline.body.timeline.events.at(-1);
    assert.equal(event.status_code, 'delivered');
    assert.equal(event.pod.signature_proof_id, proofs.signature!.id);
    assert.deepEqual(event.pod.photo_proof_ids, [proofs.photo!.id]);
    assert.ok(!JSON.stringify(timeline.body).includes('proofs/'));
    // The public timeline formats carry neither the ids nor links.
    const publicTimeline = await api.get(`/api/v1/otep/trackings/${delivered.number}`);
    assert.equal(publicTimeline.status, 200);
    assert.ok(!JSON.stringify(publicTimeline.body).includes('proof_id'));
  });

  it('refuses a tampered, made-up or expired link with 404, alike', async () => {
    const pod = (await api.get(`/api/v1/tracking/${delivered.number}`)).body.proof_of_delivery;
    const link = new URL(pod.signature_url);
    const signature = link.searchParams.get('signature')!;
    const expires = link.searchParams.get('expires')!;
    const tampered = [
      `${link.pathname}?expires=${expires}&signature=${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
      `${link.pathname}?expires=${Number(expires) + 60}&signature=${signature}`,
      `/api/v1/proofs/${proofs.pendingPhoto!.id}?expires=${expires}&signature=${signature}`,
      `/api/v1/proofs/${proofs.signature!.id}`,
      `/api/v1/proofs/${proofs.signature!.id}?expires=soon&signature=${signature}`,
      `/api/v1/proofs/999999?expires=${expires}&signature=${signature}`,
    ];
    for (const path of tampered) {
      const refused = await api.get(path);
      assert.equal(refused.status, 404, path);
      assert.equal(refused.body.error_code, 'PROOF_LINK_INVALID', path);
    }
    assert.equal((await open(pod.signature_url)).status, 200, 'the link itself still opens');
    server.clock.advance(15 * 60_000 + 1000);
    const expired = await api.get(`${link.pathname}${link.search}`);
    assert.equal(expired.status, 404);
    assert.equal(expired.body.error_code, 'PROOF_LINK_INVALID');
    assert.equal(expired.headers.get('cache-control'), 'no-store');
    const fresh = (await api.get(`/api/v1/tracking/${delivered.number}`)).body.proof_of_delivery;
    assert.notEqual(fresh.signature_url, pod.signature_url, 'the tracking answer signs fresh links');
    assert.equal((await open(fresh.signature_url)).status, 200);
  });

  it('shows no proof links for a parcel that is not delivered', async () => {
    await move(pending.id, { status: 'PICKED_UP' });
    const answer = await api.get(`/api/v1/tracking/${pending.number}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.proof_of_delivery, null);
    assert.ok(!JSON.stringify(answer.body).includes('/api/v1/proofs/'));
  });

  it('shows the images on the tracking page through signed links', async () => {
    const page = await fetch(`${server.baseUrl}/track/${delivered.number}`);
    assert.equal(page.status, 200);
    const html = await page.text();
    const sources = [...html.matchAll(/<img src="([^"]+)"/g)].map((match) =>
      match[1]!.replaceAll('&amp;', '&'),
    );
    assert.equal(sources.length, 2);
    for (const source of sources) {
      assert.match(source, /\/api\/v1\/proofs\/\d+\?expires=\d+&signature=[\w-]{43}$/);
      assert.equal((await open(source)).status, 200);
    }
    assert.match(
      page.headers.get('content-security-policy') ?? '',
      new RegExp(`img-src ${PUBLIC_BASE_URL};`),
    );
  });

  async function move(orderId: number, body: object) {
    server.clock.advance(60_000);
    const moved = await api.post(`/api/v1/client/orders/${orderId}/status`, body, { token: admin });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
  }
});
