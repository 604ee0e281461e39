import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const DAY_MS = 86_400_000;

describe('label images: never kept unless the business asks, then removed at the end of its days', () => {
  let server: TestServer;
  let api: Client;
  let tenant: Tenant;
  let admin: string;
  let employee: string;
  let dataDir: string;
  let png: Buffer;

  const labelsDir = () => path.join(dataDir, 'files', 'labels', String(tenant.businessId));
  const keptFiles = async () =>
    (await readdir(labelsDir()).catch(() => [] as string[])).filter((name) => !name.endsWith('.meta.json'));
  const rowsOfImages = async () =>
    Number(
      (
        await server.db
          .selectFrom('label_images' as never)
          .select((eb) => eb.fn.countAll().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );
  const createFromLabel = (ref: string, extra: Record<string, unknown> = {}) =>
    api.post(
      '/api/v1/labels/orders',
      {
        order: { order_ref: ref, dropoff: { line1: '18 Avenue Victor Hugo' } },
        tracking_numbers: [],
        ...extra,
      },
      { token: admin },
    );

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'tms-labels-'));
    server = await startTestServer({
      dataDir,
      storage: { kind: 'disk', directory: path.join(dataDir, 'files') },
    });
    api = client(server.baseUrl);
    tenant = await createTenant(server.db, server.app.services, 'ocr-keep');
    admin = await login(api, tenant.emails.client_admin);
    employee = await login(api, tenant.emails.employee);
    png = await sharp({
      create: { width: 60, height: 90, channels: 3, background: { r: 255, g: 255, b: 255 } },
    })
      .png()
      .toBuffer();
  });
  after(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps no image by default, and refuses one sent in vain', async () => {
    const settings = await api.get('/api/v1/labels/settings', { token: admin });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    assert.deepEqual(settings.body, { result: true, keep_label_images_days: 0, updated_at: null });
    const refused = await createFromLabel('KEEP-0', {
      label_image_base64: png.toString('base64'),
      label_image_content_type: 'image/png',
    });
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body.error_code, 'LABEL_IMAGES_NOT_KEPT');
    const listed = await api.get('/api/v1/client/orders?order_ref=KEEP-0', { token: admin });
    assert.equal(listed.body.total, 0, 'no order was created');
    const plain = await createFromLabel('KEEP-1');
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.equal(plain.body.label_image, null);
    assert.deepEqual(await keptFiles(), []);
  });

  it('lets only the admin choose, within 0 to 365 days', async () => {
    const byEmployee = await api.call('PUT', '/api/v1/labels/settings', {
      token: employee,
      body: { keep_label_images_days: 30 },
    });
    assert.equal(byEmployee.status, 403, JSON.stringify(byEmployee.body));
    const tooLong = await api.call('PUT', '/api/v1/labels/settings', {
      token: admin,
      body: { keep_label_images_days: 366 },
    });
    assert.equal(tooLong.status, 422, JSON.stringify(tooLong.body));
    const saved = await api.call('PUT', '/api/v1/labels/settings', {
      token: admin,
      body: { keep_label_images_days: 2 },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.keep_label_images_days, 2);
    assert.equal((await api.get('/api/v1/labels/settings', { token: admin })).body.keep_label_images_days, 2);
  });

  it('keeps an image with its order for the days chosen, then removes it', async () => {
    const mislabelled = await createFromLabel('KEEP-JPEG', {
      label_image_base64: png.toString('base64'),
      label_image_content_type: 'image/jpeg',
    });
    assert.equal(mislabelled.status, 422, JSON.stringify(mislabelled.body));
    assert.equal(mislabelled.body.error_code, 'LABEL_NOT_READABLE');
    const gif = await createFromLabel('KEEP-GIF', {
      label_image_base64: png.toString('base64'),
      label_image_content_type: 'image/gif',
    });
    assert.equal(gif.status, 415, JSON.stringify(gif.body));
    assert.equal(gif.body.error_code, 'UNSUPPORTED_LABEL_TYPE');

    const created = await createFromLabel('KEEP-2', {
      label_image_base64: png.toString('base64'),
      label_image_content_type: 'image/png',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const kept = created.body.label_image;
    assert.equal(kept.expires_at, new Date(server.clock.now().getTime() + 2 * DAY_MS).toISOString());
    assert.equal((await keptFiles()).length, 1);
    assert.equal(await rowsOfImages(), 1);

    server.clock.advance(2 * DAY_MS - 60_000);
    await server.app.outbox.drainOnce();
    assert.equal((await keptFiles()).length, 1, 'kept until its days are over');
    server.clock.advance(60_000);
    await server.app.outbox.drainOnce();
    assert.deepEqual(await keptFiles(), []);
    assert.equal(await rowsOfImages(), 0);
  });
});
