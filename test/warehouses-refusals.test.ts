import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { issuedToken, login } from './support/fixtures.ts';
import {
  admin,
  api,
  driver,
  employee,
  get,
  inventory,
  lanes,
  north,
  otherAdmin,
  post,
  receive,
  server,
  setUpWarehouses,
  south,
  tenant,
  tn,
} from './support/warehouses.ts';

describe('warehouses', () => {
  before(setUpWarehouses);
  after(() => server.close());

  it('refuses the wrong kind, a missing role or scope, another business and bad input', async () => {
    const customer = await login(api, tenant.emails.customer);
    const contractor = await login(api, tenant.emails.contractor);
    assert.equal((await get('/v1/client/warehouses', customer)).body.error_code, 'FORBIDDEN');
    assert.equal((await receive([tn.U5!], contractor)).body.error_code, 'FORBIDDEN');
    assert.equal(
      (await post('/v1/client/warehouses', { code: 'X', name: 'X', line1: 'x', time_zone: 'UTC' }, employee))
        .body.error_code,
      'FORBIDDEN',
    );
    // The driver has the warehouse role at NORTH only.
    const noRole = await receive([tn.U5!], driver, south);
    assert.deepEqual([noRole.status, noRole.body.error_code], [403, 'WAREHOUSE_ROLE_REQUIRED']);
    const noRoleTransfer = await post(
      '/v1/client/warehouse-transfers',
      { from_warehouse_id: north, to_warehouse_id: south, tracking_numbers: [tn.U5] },
      customer,
    );
    assert.equal(noRoleTransfer.body.error_code, 'FORBIDDEN');

    const readOnly = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'wms-readonly',
    });
    assert.equal((await get(`/v1/client/inventory?warehouse_id=${north}`, readOnly)).status, 200);
    const noWrite = await receive([tn.U5!], readOnly);
    assert.deepEqual([noWrite.status, noWrite.body.error_code], [403, 'INSUFFICIENT_SCOPE']);
    const opsOnly = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
    });
    assert.equal((await get('/v1/client/warehouses', opsOnly)).body.error_code, 'INSUFFICIENT_SCOPE');

    // Another business: its warehouses are not found, its lists never show ours.
    assert.equal((await get('/v1/client/warehouses', otherAdmin)).body.total, 0);
    const theirInventory = await get(`/v1/client/inventory?warehouse_id=${north}`, otherAdmin);
    assert.deepEqual([theirInventory.status, theirInventory.body.error_code], [404, 'WAREHOUSE_NOT_FOUND']);
    assert.equal((await get('/v1/client/inventory', otherAdmin)).body.total, 0);
    const theirScan = await receive([tn.U5!], otherAdmin);
    assert.deepEqual([theirScan.status, theirScan.body.error_code], [404, 'WAREHOUSE_NOT_FOUND']);
    const theirSort = await post(`/v1/warehouse/${north}/sort`, { tracking_number: tn.U5 }, otherAdmin);
    assert.equal(theirSort.status, 404);
    const theirRollback = await post('/v1/client/warehouse-transfers/1/rollback', {}, otherAdmin);
    assert.deepEqual([theirRollback.status, theirRollback.body.error_code], [404, 'TRANSFER_NOT_FOUND']);
    const theirCustomer = await get(
      `/v1/client/inventory?what=stock&customer_id=${tenant.userIds.customer}`,
      otherAdmin,
    );
    assert.equal(theirCustomer.body.error_code, 'CUSTOMER_NOT_FOUND');

    // Bad input: 422 in the documented shape, in the caller's language.
    const empty = await receive([]);
    assert.equal(empty.status, 422);
    assert.deepEqual(Object.keys(empty.body).sort(), ['details', 'error_code', 'message', 'result']);
    assert.deepEqual(
      [empty.body.result, empty.body.error_code, empty.body.details.fields[0].field],
      [false, 'VALIDATION_FAILED', 'tracking_numbers'],
    );
    const badZone = await post('/v1/client/warehouses', {
      code: 'BAD',
      name: 'Bad',
      line1: 'x',
      time_zone: 'Mars/Olympus',
    });
    assert.deepEqual([badZone.status, badZone.body.details.fields[0].field], [422, 'time_zone']);
    const same = await post(
      '/v1/client/warehouse-transfers',
      { from_warehouse_id: north, to_warehouse_id: north, tracking_numbers: [tn.U5] },
      employee,
    );
    assert.deepEqual([same.status, same.body.details.fields[0].field], [422, 'to_warehouse_id']);
    const both = await post(`/v1/warehouse/${north}/putaway`, { location_id: lanes['BIN-2'] }, employee);
    assert.equal(both.status, 422);
    const duplicate = await post('/v1/client/warehouses', {
      code: 'NORTH',
      name: 'Again',
      line1: 'x',
      time_zone: 'UTC',
    });
    assert.deepEqual([duplicate.status, duplicate.body.error_code], [409, 'ALREADY_EXISTS']);
    const french = await api.get(`/api/v1/client/inventory?warehouse_id=${north}&state=lost`, {
      token: admin,
      headers: { 'accept-language': 'fr' },
    });
    assert.equal(french.status, 422);
    const unknownRoute = await post(
      `/v1/warehouse/${north}/routes/999999/load`,
      { tracking_number: tn.U5 },
      driver,
    );
    assert.deepEqual([unknownRoute.status, unknownRoute.body.error_code], [404, 'ROUTE_NOT_FOUND']);
  });

  it('refuses every warehouse operation to the wrong kind, a token without its scope, and bad input', async () => {
    const operations = server.app.catalog
      .list()
      .filter((operation) => ['Warehouse Mobile', 'Warehouse Transfer'].includes(operation.tag));
    assert.equal(operations.length, 17);
    const customer = await login(api, tenant.emails.customer);
    const noWms = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'datasets-readonly',
    });
    for (const operation of operations) {
      const { method, path } = operation.rest!;
      // Ids of 0 are never valid: the input is refused whatever the business holds.
      const url = (ids: string) =>
        `/api${path.replace(/:[a-z_]+/g, ids)}${method === 'GET' ? '?page=0' : ''}`;
      const send = (token: string, ids = '1') =>
        api.call(method, url(ids), { token, ...(method === 'GET' ? {} : { body: {} }) });
      const wrongKind = await send(customer);
      assert.deepEqual([wrongKind.status, wrongKind.body.error_code], [403, 'FORBIDDEN'], operation.name);
      const narrow = await send(noWms);
      assert.deepEqual([narrow.status, narrow.body.error_code], [403, 'INSUFFICIENT_SCOPE'], operation.name);
      const bad = await send(admin, '0');
      assert.deepEqual(
        [bad.status, bad.body.result, bad.body.error_code, Array.isArray(bad.body.details.fields)],
        [422, false, 'VALIDATION_FAILED', true],
        operation.name,
      );
    }
  });

  it('refuses to transfer a delivered package or one of another family, naming each', async () => {
    const made = await post('/v1/client/orderCreate', {
      order_ref: 'DONE-1',
      dropoff: { line1: '1 Rue Mercière', postal_code: '69002' },
    });
    const storage = await post('/v1/client/orderCreate', {
      order_ref: 'STORE-1',
      family: 'storage_service',
      dropoff: { line1: '2 Rue Mercière', postal_code: '69002' },
    });
    assert.equal(storage.status, 200, JSON.stringify(storage.body));
    await receive([made.body.tracking_number, storage.body.tracking_number]);
    for (const status of ['OUT_FOR_DELIVERY', 'DELIVERED']) {
      await post(`/v1/client/orders/${made.body.order_id}/status`, { status });
    }
    // Sent out by another door than the warehouse's: it has left the inventory all the same.
    const gone = await inventory(`tracking_number=${made.body.tracking_number}&state=dispatched`);
    assert.equal(gone.total, 1);
    assert.equal((await inventory(`tracking_number=${made.body.tracking_number}`)).total, 0);
    const refused = await post(
      '/v1/client/warehouse-transfers',
      {
        from_warehouse_id: north,
        to_warehouse_id: south,
        tracking_numbers: [made.body.tracking_number, storage.body.tracking_number],
      },
      employee,
    );
    assert.deepEqual(refused.body.details.failures, [
      { tracking_number: made.body.tracking_number, reason: 'delivered' },
      { tracking_number: storage.body.tracking_number, reason: 'not_local_delivery' },
    ]);
    assert.match(refused.body.message, /2/);
  });
});
