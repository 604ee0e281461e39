import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { loadConfig } from '../src/config.ts';
import { ACCOUNT_KINDS } from '../src/platform/catalog/operation.ts';
import { createTenant, login, type Tenant } from './support/fixtures.ts';
import { type Answer, type Client, client } from './support/http.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Business A's data must be out of reach of every token of business B. Each operation that needs
 * a token has a check here; a new operation without one fails the coverage test below.
 */
describe('tenant isolation', () => {
  let server: TestServer;
  let api: Client;
  let a: Tenant;
  let b: Tenant;
  const tokensOfB: Record<string, string> = {};

  let orderOfA: { id: number; order_ref: string; tracking_number: string };
  const adminOfB = () => tokensOfB.client_admin!;
  /** A's order, as its own admin sees it; must be unchanged by anything B does. */
  const orderAsA = async () =>
    (await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: tokenOfA })).body.order;
  let tokenOfA: string;
  let routeOfA: number;
  let ruleOfA: number;
  let providerOfA: { id: number; key: string };
  let providerKeyOfB: string;
  let deliveryOfA: number;
  /** An app assigned to A only. */
  const appOfA = 'tenancy-app';
  const eventsOfA = async () =>
    (await api.get(`/api/v1/otep/trackings/${orderOfA.tracking_number}`)).body.data.events.length;
  const pushToA = (key: string) =>
    api.post(
      '/api/v1/otep/ingest',
      {
        otep_version: '0.1',
        profile: 'parcel',
        subject: { tracking_number: orderOfA.tracking_number },
        events: [
          { occurred_at: '2026-11-02T12:00:00Z', status_code: 'in_transit', source: { type: 'carrier' } },
        ],
      },
      { headers: { 'x-otep-provider-key': key } },
    );
  /** The contractor holding A's order, as A sees it. */
  const activeBrokerOfA = async () =>
    (
      await api.get(`/api/v1/broker-order-assignments?order_id=${orderOfA.id}&status=active`, {
        token: tokenOfA,
      })
    ).body.assignments[0]?.broker_id;
  const refusedById =
    (path: string, body: unknown = {}) =>
    async () => {
      const before = await orderAsA();
      const answer = await api.post(`/api/v1/client/orders/${orderOfA.id}/${path}`, body, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
      assert.deepEqual(await orderAsA(), before);
    };

  /** B's driver writing on A's route: not found, and A's route stays planned. */
  const driverOfBOnRouteOfA =
    (path: string, body: object = {}) =>
    async () => {
      const answer = await api.post(
        `/api/v1/driver/routes/${routeOfA}/${path}`,
        { client_id: `b-${path}`, device_time: '2026-11-02T09:00:00Z', ...body },
        { token: tokensOfB.driver },
      );
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
      const route = await api.get(`/api/v1/client/routes/${routeOfA}`, { token: tokenOfA });
      assert.equal(route.body.route.status, 'planned');
    };

  /** A's own carrier and a label bought from it, made by the first shipping check that needs them. */
  let shippingOfA: Promise<{ trackingNumber: string }> | undefined;
  const A_CARRIER = {
    name: 'A Post',
    rate_card: {
      currency: 'EUR',
      zoning: { method: 'postal_prefix', zones: [{ zone: 'all', destination_prefixes: [''] }] },
      services: [
        {
          code: 'ground',
          name: 'Ground',
          zones: [{ zone: 'all', transit_days: 2, weight_breaks: [{ up_to_kg: 5, price: 5 }] }],
        },
      ],
    },
  };
  const PARCEL = {
    pickup: { line1: 'A depot' },
    dropoff: { line1: 'A customer' },
    packages: [{ weight_grams: 500 }],
  };
  const labelOfA = () =>
    (shippingOfA ??= (async () => {
      const saved = await api.call('PUT', '/api/v1/shipping/carriers/a-post', {
        token: tokenOfA,
        body: A_CARRIER,
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const label = await api.post(
        '/api/v1/labelservice/submitOrder',
        { ...PARCEL, carrier: 'a-post', service: 'ground' },
        { token: tokenOfA },
      );
      assert.equal(label.status, 200, JSON.stringify(label.body));
      return { trackingNumber: label.body.tracking_number as string };
    })());
  const carrierOfAUnknownToB = (path: string, body: object) => async () => {
    await labelOfA();
    const answer = await api.post(path, { ...PARCEL, carrier: 'a-post', ...body }, { token: adminOfB() });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'CARRIER_NOT_FOUND');
  };

  /** A driver who signed up for A, made by the first registration check that needs one. */
  let registrationOfA: Promise<number> | undefined;
  const pendingRegistrationOfA = () =>
    (registrationOfA ??= (async () => {
      const signUp = await api.post('/api/v1/driver/register', {
        business_code: a.code,
        name: 'Applicant of A',
        email: 'applicant@tenancy-a.test',
        password: 'a long password',
      });
      assert.equal(signUp.status, 200, JSON.stringify(signUp.body));
      const listed = await api.get('/api/v1/client/driver-registrations', { token: tokenOfA });
      return listed.body.registrations[0].id as number;
    })());
  const registrationOfAStaysPending = (decision: 'approve' | 'reject') => async () => {
    const id = await pendingRegistrationOfA();
    const answer = await api.post(
      `/api/v1/client/driver-registrations/${id}/${decision}`,
      {},
      { token: adminOfB() },
    );
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'REGISTRATION_NOT_FOUND');
    const asA = await api.get('/api/v1/client/driver-registrations', { token: tokenOfA });
    assert.equal(asA.body.registrations.find((r: { id: number }) => r.id === id).status, 'pending');
  };

  /** A pending write proposal of A (to cancel A's order), made by the first approvals check. */
  let proposalOfA: Promise<number> | undefined;
  const pendingProposalOfA = () => {
    proposalOfA ??= api
      .post(
        '/api/v1/agent/approvals',
        { tool: 'cancel_order', arguments: { order_id: orderOfA.id }, reason: 'tenancy' },
        { token: tokenOfA },
      )
      .then((answer) => {
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        return answer.body.proposal.id as number;
      });
    return proposalOfA;
  };
  const proposalOfAStaysPending = (action: 'approve' | 'reject') => async () => {
    const id = await pendingProposalOfA();
    const answer = await api.post(
      `/api/v1/agent/approvals/${id}/${action}`,
      { reason: 'not mine' },
      { token: adminOfB() },
    );
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'PROPOSAL_NOT_FOUND');
    const asA = await api.get('/api/v1/agent/approvals', { token: tokenOfA });
    assert.ok(asA.body.proposals.some((proposal: { id: number }) => proposal.id === id));
    assert.notEqual((await orderAsA()).status, 'CANCELLED');
  };

  /** An alliance of A's, A alone in it, granting everything: made by the first alliance check. */
  let allianceOfA: Promise<number> | undefined;
  const allianceIdOfA = () => {
    allianceOfA ??= (async () => {
      const created = await api.post('/api/v1/client/alliances', { name: 'A only' }, { token: tokenOfA });
      const id = created.body.alliance.id as number;
      await api.call('PATCH', `/api/v1/client/alliances/${id}/grants`, {
        token: tokenOfA,
        body: { track_packages: true, see_orders: true },
      });
      return id;
    })();
    return allianceOfA;
  };
  /** B's call on A's alliance is answered as for an alliance that does not exist, and changes nothing. */
  const allianceRefused = (method: string, path: string, body?: unknown) => async () => {
    const id = await allianceIdOfA();
    const answer = await api.call(method, `/api/v1/client/alliances/${id}${path}`, {
      token: adminOfB(),
      body,
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ALLIANCE_NOT_FOUND');
    const asA = await api.get(`/api/v1/client/alliances/${id}`, { token: tokenOfA });
    assert.equal(asA.body.alliance.name, 'A only');
    assert.equal(asA.body.alliance.member_count, 1);
    assert.equal(asA.body.alliance.my_grants.see_orders, true);
  };

  /** A saved address of A's own book, made by the first address-book check. */
  let addressOfA: Promise<number> | undefined;
  const savedAddressOfA = () => {
    addressOfA ??= api
      .post('/api/v1/client/addresses', { label: 'A secret place', line1: '1 A street' }, { token: tokenOfA })
      .then((answer) => answer.body.address.id as number);
    return addressOfA;
  };
  const addressOfAUnchanged = async () => {
    const id = await savedAddressOfA();
    const asA = await api.get('/api/v1/client/addresses', { token: tokenOfA });
    const address = asA.body.addresses.find((candidate: { id: number }) => candidate.id === id);
    assert.equal(address?.label, 'A secret place');
  };

  /** A point of interest of A, made by the first POI check. */
  let poiOfA: Promise<number> | undefined;
  const pointOfA = () => {
    poiOfA ??= api
      .post(
        '/api/v1/client/points-of-interest',
        { name: 'A hub', category: 'hub', line1: '1 A street', lat: 1, lng: 1 },
        { token: tokenOfA },
      )
      .then((answer) => answer.body.point.id as number);
    return poiOfA;
  };
  const pointOfAStays = async () => {
    const id = await pointOfA();
    const asA = await api.get('/api/v1/client/points-of-interest', { token: tokenOfA });
    assert.equal(asA.body.points.find((point: { id: number }) => point.id === id)?.name, 'A hub');
  };

  /** A dataset of A (in a group of A) with one record, made by the first dataset check. */
  let mapOfAMade: Promise<{ mapId: number; zoneId: number }> | undefined;
  const mapOfA = () => {
    mapOfAMade ??= (async () => {
      const ring = [
        [1, 1],
        [1.1, 1],
        [1.1, 1.1],
        [1, 1],
      ];
      const zone = await api.post(
        '/api/v1/client/service-zones',
        { name: 'A zone', geometry: { type: 'Polygon', coordinates: [ring] } },
        { token: tokenOfA },
      );
      const map = await api.post(
        '/api/v1/client/maps',
        { name: 'A map', layers: [{ key: 'zones', kind: 'service_zones', name: 'Zones' }] },
        { token: tokenOfA },
      );
      return { mapId: map.body.map.id as number, zoneId: zone.body.zone.id as number };
    })();
    return mapOfAMade;
  };
  /** B reaching A's map or zone by its id: 404, and A's map and zone as they were. */
  const mapRefused =
    (
      code: 'MAP_NOT_FOUND' | 'SERVICE_ZONE_NOT_FOUND',
      method: string,
      path: (ids: { mapId: number; zoneId: number }) => string,
      body?: unknown,
    ) =>
    async () => {
      const ids = await mapOfA();
      const answer = await api.call(method, `/api/v1/client/${path(ids)}`, { token: adminOfB(), body });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, code);
      const map = await api.get(`/api/v1/client/maps/${ids.mapId}`, { token: tokenOfA });
      assert.equal(map.body.map.name, 'A map');
      assert.equal(map.body.map.visibility, 'authenticated');
      assert.equal(map.body.layers[0].geojson.features[0].properties.name, 'A zone');
    };
  let datasetOfAMade: Promise<{ groupId: number; datasetId: number; recordId: number }> | undefined;
  const datasetOfA = () => {
    datasetOfAMade ??= (async () => {
      const group = await api.post('/api/v1/client/dataset-groups', { name: 'A group' }, { token: tokenOfA });
      const dataset = await api.post(
        '/api/v1/client/datasets',
        {
          name: 'A sites',
          group_id: group.body.group.id,
          fields: [
            { name: 'name', type: 'text', required: true },
            { name: 'point', type: 'geo_point' },
          ],
        },
        { token: tokenOfA },
      );
      const datasetId = dataset.body.dataset.id as number;
      const record = await api.post(
        `/api/v1/client/datasets/${datasetId}/records`,
        { values: { name: 'A secret site', point: { lat: 1, lng: 1 } } },
        { token: tokenOfA },
      );
      return { groupId: group.body.group.id as number, datasetId, recordId: record.body.record.id as number };
    })();
    return datasetOfAMade;
  };
  /** A's dataset as A sees it, its group and its records unchanged by anything B does. */
  const datasetOfAStays = async () => {
    const { datasetId, recordId } = await datasetOfA();
    const dataset = await api.get(`/api/v1/client/datasets/${datasetId}`, { token: tokenOfA });
    assert.equal(dataset.body.dataset.name, 'A sites');
    assert.equal(dataset.body.dataset.group?.name, 'A group');
    assert.equal(dataset.body.dataset.record_count, 1);
    const record = await api.get(`/api/v1/client/datasets/${datasetId}/records/${recordId}`, {
      token: tokenOfA,
    });
    assert.equal(record.body.record.values.name, 'A secret site');
  };
  /** B reaching A's dataset by its id: 404 DATASET_NOT_FOUND, and A's data as it was. */
  const datasetRefused =
    (call: (ids: { datasetId: number; recordId: number }) => Promise<Answer>) => async () => {
      const ids = await datasetOfA();
      const answer = await call(ids);
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'DATASET_NOT_FOUND');
      await datasetOfAStays();
    };

  /** A return reason of A, made by the first return-reason check. */
  let reasonOfA: Promise<void> | undefined;
  const returnReasonOfA = () => {
    reasonOfA ??= api
      .call('PUT', '/api/v1/client/return-reasons/a_only', {
        token: tokenOfA,
        body: { labels: { en: 'A only' } },
      })
      .then((answer) => assert.equal(answer.status, 200, JSON.stringify(answer.body)));
    return reasonOfA;
  };
  const reasonsOfA = async () =>
    (await api.get('/api/v1/client/return-reasons', { token: tokenOfA })).body.reasons.map(
      (reason: { code: string; label: string }) => `${reason.code}:${reason.label}`,
    );

  let skillOfAMade: Promise<void> | undefined;
  /** A's skill `a-only`, made by the first skills check. */
  const skillOfA = () => {
    skillOfAMade ??= (async () => {
      for (const [code, label] of [
        ['a-only', 'A only'],
        ['a-second', 'A second'],
      ]) {
        const answer = await api.call('PUT', `/api/v1/client/skills/${code}`, {
          token: tokenOfA,
          body: { label },
        });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
      }
    })();
    return skillOfAMade;
  };
  const skillsOfA = async () =>
    (await api.get('/api/v1/client/skills', { token: tokenOfA })).body.skills.map(
      (skill: { code: string; label: string }) => `${skill.code}:${skill.label}`,
    );
  /** B's call on A's driver or order: not found, as an unknown id would be. */
  const refusedAs = (code: string, method: string, path: string, body?: object) => async () => {
    await skillOfA();
    const answer = await api.call(method, `/api/v1/client/${path}`, { token: adminOfB(), body });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, code);
  };

  /** A warehouse of A with a bin, and one of A's packages received there, made by the first warehouse check. */
  let warehouseOfAMade:
    | Promise<{ id: number; binId: number; trackingNumber: string; transferId: number }>
    | undefined;
  const warehouseOfA = () => {
    warehouseOfAMade ??= (async () => {
      const made = (code: string) =>
        api.post(
          '/api/v1/client/warehouses',
          { code, name: `A ${code}`, line1: '1 A street', time_zone: 'Europe/Paris' },
          { token: tokenOfA },
        );
      const id = (await made('A-WH')).body.warehouse.id as number;
      const second = (await made('A-WH2')).body.warehouse.id as number;
      const bin = await api.post(
        `/api/v1/client/warehouses/${id}/locations`,
        { code: 'A-BIN', kind: 'bin', capacity: 5 },
        { token: tokenOfA },
      );
      const order = await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: 'a-parcel', dropoff: { line1: '2 A street' } },
        { token: tokenOfA },
      );
      const trackingNumber = order.body.tracking_number as string;
      await api.post(
        `/api/v1/warehouse/${id}/receive`,
        { tracking_numbers: [trackingNumber] },
        { token: tokenOfA },
      );
      const moved = await api.post(
        '/api/v1/client/warehouse-transfers',
        { from_warehouse_id: id, to_warehouse_id: second, tracking_numbers: [trackingNumber] },
        { token: tokenOfA },
      );
      await api.post(
        `/api/v1/client/warehouse-transfers/${moved.body.transfer.id}/rollback`,
        {},
        { token: tokenOfA },
      );
      return {
        id,
        binId: bin.body.location.id as number,
        trackingNumber,
        transferId: moved.body.transfer.id as number,
      };
    })();
    return warehouseOfAMade;
  };
  /** A's package is still where A received it, as A sees it. */
  const parcelOfAStays = async () => {
    const { id, trackingNumber } = await warehouseOfA();
    const asA = await api.get(`/api/v1/client/inventory?tracking_number=${trackingNumber}`, {
      token: tokenOfA,
    });
    assert.deepEqual([asA.body.packages[0]?.warehouse_id, asA.body.packages[0]?.state], [id, 'received']);
  };
  /** B calls a warehouse operation of A's warehouse: not found, and A's package unmoved. */
  const warehouseOfANotFound =
    (
      call: (warehouse: {
        id: number;
        binId: number;
        trackingNumber: string;
      }) => Promise<{ status: number; body: { error_code?: string } }>,
    ) =>
    async () => {
      const answer = await call(await warehouseOfA());
      assert.deepEqual([answer.status, answer.body.error_code], [404, 'WAREHOUSE_NOT_FOUND']);
      await parcelOfAStays();
    };
  /** Order chat on for both businesses, and a message of A's on A's order, made by the first chat check. */
  let chatOfA: Promise<number> | undefined;
  const chatReady = () => {
    chatOfA ??= (async () => {
      for (const token of [tokenOfA, adminOfB()]) {
        await api.call('PUT', '/api/v1/client/feature-families/order_chat', {
          token,
          body: { enabled: true },
        });
        await api.call('PUT', '/api/v1/client/order-chat/settings', {
          token,
          body: { customer_chat: false },
        });
      }
      const posted = await api.post(
        `/api/v1/order-chats/${orderOfA.id}/messages`,
        { text: 'only for A' },
        { token: tokenOfA },
      );
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      return posted.body.message.id as number;
    })();
    return chatOfA;
  };
  const chatAsA = async () => (await api.get(`/api/v1/order-chats/${orderOfA.id}`, { token: tokenOfA })).body;
  /** B's staff reaching A's order's conversation: 404, and A's conversation unchanged. */
  const chatRefused = (method: string, path: string, body?: unknown) => async () => {
    await chatReady();
    const before = await chatAsA();
    const answer = await api.call(method, `/api/v1/order-chats/${orderOfA.id}${path}`, {
      token: adminOfB(),
      body,
    });
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
    assert.deepEqual(await chatAsA(), before);
  };

  const checks: Record<string, () => Promise<void>> = {
    get_feature_families: async () => {
      await chatReady();
      await api.call('PUT', '/api/v1/client/feature-families/operations_agent', {
        token: tokenOfA,
        body: { enabled: true },
      });
      const answer = await api.get('/api/v1/client/feature-families', { token: adminOfB() });
      assert.equal(answer.body.business_id, b.businessId);
      const agent = answer.body.families.find((f: { family: string }) => f.family === 'operations_agent');
      assert.equal(agent.enabled, false);
    },
    set_feature_family: async () => {
      await api.call('PUT', '/api/v1/client/feature-families/sms_marketing', {
        token: adminOfB(),
        body: { enabled: true },
      });
      const asA = await api.get('/api/v1/client/feature-families', { token: tokenOfA });
      const sms = asA.body.families.find((f: { family: string }) => f.family === 'sms_marketing');
      assert.equal(sms.enabled, false);
    },
    set_feature_family_revoked: async () => {
      await chatReady();
      const answer = await api.call(
        'PUT',
        `/api/v1/platform/businesses/${a.businessId}/feature-families/order_chat`,
        { token: adminOfB(), body: { revoked: true } },
      );
      assert.equal(answer.status, 403);
      assert.equal((await api.get('/api/v1/order-chats', { token: tokenOfA })).status, 200);
    },
    set_order_chat_settings: async () => {
      await chatReady();
      await api.call('PUT', '/api/v1/client/order-chat/settings', {
        token: adminOfB(),
        body: { customer_chat: true },
      });
      assert.equal((await chatAsA()).customer_chat, false);
    },
    list_order_chats: async () => {
      await chatReady();
      for (const token of [adminOfB(), tokensOfB.driver!, tokensOfB.customer!]) {
        const answer = await api.get('/api/v1/order-chats', { token });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.ok(answer.body.chats.every((chat: { order_id: number }) => chat.order_id !== orderOfA.id));
      }
      const named = await api.get(`/api/v1/order-chats?business_id=${a.businessId}`, {
        token: tokensOfB.contractor,
      });
      assert.equal(named.status, 403, JSON.stringify(named.body));
    },
    get_order_chat: chatRefused('GET', ''),
    post_order_chat_message: chatRefused('POST', '/messages', { text: 'from B' }),
    mark_order_chat_read: chatRefused('POST', '/read', {}),
    close_order_chat: chatRefused('POST', '/close', {}),
    reopen_order_chat: chatRefused('POST', '/reopen', {}),
    set_order_customer_chat: chatRefused('PUT', '/customer-chat', { customer_chat: true }),
    list_return_reasons: async () => {
      await returnReasonOfA();
      const answer = await api.get('/api/v1/client/return-reasons', { token: adminOfB() });
      assert.ok(answer.body.reasons.every((reason: { code: string }) => reason.code !== 'a_only'));
    },
    save_return_reason: async () => {
      await returnReasonOfA();
      // B's reason of the same code is B's own; A's is untouched.
      await api.call('PUT', '/api/v1/client/return-reasons/a_only', {
        token: adminOfB(),
        body: { labels: { en: 'B' } },
      });
      assert.ok((await reasonsOfA()).includes('a_only:A only'));
    },
    delete_return_reason: async () => {
      await returnReasonOfA();
      await api.call('DELETE', '/api/v1/client/return-reasons/a_only', { token: adminOfB() });
      assert.ok((await reasonsOfA()).includes('a_only:A only'));
    },
    list_skills: async () => {
      await skillOfA();
      const answer = await api.get('/api/v1/client/skills', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.skills.every((skill: { code: string }) => skill.code !== 'a-only'));
    },
    save_skill: async () => {
      await skillOfA();
      // B's skill of the same code is B's own; A's keeps its label.
      const answer = await api.call('PUT', '/api/v1/client/skills/a-only', {
        token: adminOfB(),
        body: { label: 'B' },
      });
      assert.equal(answer.body.created, true);
      assert.ok((await skillsOfA()).includes('a-only:A only'));
    },
    delete_skill: async () => {
      await skillOfA();
      const answer = await api.call('DELETE', '/api/v1/client/skills/a-second', { token: adminOfB() });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'SKILL_NOT_FOUND');
      assert.ok((await skillsOfA()).includes('a-second:A second'));
    },
    get_driver_skills: async () => {
      await refusedAs('DRIVER_NOT_FOUND', 'GET', `drivers/${a.userIds.driver}/skills`)();
    },
    set_driver_skills: async () => {
      await refusedAs('DRIVER_NOT_FOUND', 'PUT', `drivers/${a.userIds.driver}/skills`, { skills: [] })();
    },
    get_order_required_skills: async () => {
      await refusedAs('ORDER_NOT_FOUND', 'GET', `orders/${orderOfA.id}/required-skills`)();
    },
    set_order_required_skills: async () => {
      const before = await orderAsA();
      await refusedAs('ORDER_NOT_FOUND', 'PUT', `orders/${orderOfA.id}/required-skills`, { skills: [] })();
      assert.deepEqual(await orderAsA(), before);
    },
    list_maps: async () => {
      const { mapId } = await mapOfA();
      const answer = await api.get('/api/v1/client/maps', { token: adminOfB() });
      assert.ok(answer.body.maps.every((map: { id: number }) => map.id !== mapId));
    },
    get_map: mapRefused('MAP_NOT_FOUND', 'GET', ({ mapId }) => `maps/${mapId}`),
    create_map: async () => {
      const { zoneId } = await mapOfA();
      const answer = await api.post(
        '/api/v1/client/maps',
        { name: 'B', layers: [{ key: 'z', kind: 'service_zones', name: 'Z', zone_ids: [zoneId] }] },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 422, JSON.stringify(answer.body));
      assert.equal(answer.body.details.fields[0].field, 'layers.0.zone_ids.0');
    },
    update_map: mapRefused('MAP_NOT_FOUND', 'PATCH', ({ mapId }) => `maps/${mapId}`, { name: 'taken' }),
    delete_map: mapRefused('MAP_NOT_FOUND', 'DELETE', ({ mapId }) => `maps/${mapId}`),
    set_map_layers: mapRefused('MAP_NOT_FOUND', 'PUT', ({ mapId }) => `maps/${mapId}/layers`, { layers: [] }),
    export_map_geojson: mapRefused('MAP_NOT_FOUND', 'GET', ({ mapId }) => `maps/${mapId}/geojson`),
    publish_map: mapRefused('MAP_NOT_FOUND', 'POST', ({ mapId }) => `maps/${mapId}/publish`, {}),
    revoke_map_link: mapRefused('MAP_NOT_FOUND', 'POST', ({ mapId }) => `maps/${mapId}/revoke`, {}),
    list_service_zones: async () => {
      const { zoneId } = await mapOfA();
      const answer = await api.get('/api/v1/client/service-zones', { token: adminOfB() });
      assert.ok(answer.body.zones.every((zone: { id: number }) => zone.id !== zoneId));
    },
    upload_service_zone: async () => {
      // B's upload is B's own: A's map still draws A's zone only.
      const ring = [
        [2, 2],
        [2.1, 2],
        [2.1, 2.1],
        [2, 2],
      ];
      const answer = await api.post(
        '/api/v1/client/service-zones',
        { name: 'B zone', geometry: { type: 'Polygon', coordinates: [ring] } },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      const { mapId } = await mapOfA();
      const map = await api.get(`/api/v1/client/maps/${mapId}`, { token: tokenOfA });
      assert.deepEqual(
        map.body.layers[0].geojson.features.map((f: { properties: { name: string } }) => f.properties.name),
        ['A zone'],
      );
    },
    replace_service_zone: mapRefused(
      'SERVICE_ZONE_NOT_FOUND',
      'PUT',
      ({ zoneId }) => `service-zones/${zoneId}`,
      {
        name: 'taken',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
      },
    ),
    delete_service_zone: mapRefused(
      'SERVICE_ZONE_NOT_FOUND',
      'DELETE',
      ({ zoneId }) => `service-zones/${zoneId}`,
    ),
    list_dataset_groups: async () => {
      const { groupId } = await datasetOfA();
      const answer = await api.get('/api/v1/client/dataset-groups', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.groups.every((group: { id: number }) => group.id !== groupId));
    },
    create_dataset_group: async () => {
      await datasetOfA();
      // The same name as A's group is B's own: names are unique per business only.
      const answer = await api.post(
        '/api/v1/client/dataset-groups',
        { name: 'A group' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const asA = await api.get('/api/v1/client/dataset-groups', { token: tokenOfA });
      assert.deepEqual(
        asA.body.groups.map((group: { name: string }) => group.name),
        ['A group'],
      );
    },
    update_dataset_group: async () => {
      const { groupId } = await datasetOfA();
      const answer = await api.call('PATCH', `/api/v1/client/dataset-groups/${groupId}`, {
        token: adminOfB(),
        body: { name: 'taken' },
      });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'DATASET_GROUP_NOT_FOUND');
      await datasetOfAStays();
    },
    delete_dataset_group: async () => {
      const { groupId } = await datasetOfA();
      const answer = await api.call(
        'DELETE',
        `/api/v1/client/dataset-groups/${groupId}?ungroup_datasets=true`,
        {
          token: adminOfB(),
        },
      );
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'DATASET_GROUP_NOT_FOUND');
      await datasetOfAStays();
    },
    list_datasets: async () => {
      const { datasetId, groupId } = await datasetOfA();
      const answer = await api.get('/api/v1/client/datasets', { token: adminOfB() });
      assert.ok(answer.body.datasets.every((dataset: { id: number }) => dataset.id !== datasetId));
      const ofGroup = await api.get(`/api/v1/client/datasets?group_id=${groupId}`, { token: adminOfB() });
      assert.deepEqual(ofGroup.body.datasets, []);
    },
    get_dataset: datasetRefused(({ datasetId }) =>
      api.get(`/api/v1/client/datasets/${datasetId}`, { token: adminOfB() }),
    ),
    create_dataset: async () => {
      const { groupId } = await datasetOfA();
      const answer = await api.post(
        '/api/v1/client/datasets',
        { name: 'Into A', group_id: groupId, fields: [{ name: 'x', type: 'text' }] },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'DATASET_GROUP_NOT_FOUND');
      await datasetOfAStays();
    },
    update_dataset: datasetRefused(({ datasetId }) =>
      api.call('PATCH', `/api/v1/client/datasets/${datasetId}`, {
        token: adminOfB(),
        body: { name: 'taken', fields: [{ name: 'name', type: 'number' }] },
      }),
    ),
    delete_dataset: datasetRefused(({ datasetId }) =>
      api.call('DELETE', `/api/v1/client/datasets/${datasetId}`, { token: adminOfB() }),
    ),
    search_dataset_records: datasetRefused(({ datasetId }) =>
      api.post(
        `/api/v1/client/datasets/${datasetId}/records/search`,
        { q: 'secret site' },
        { token: adminOfB() },
      ),
    ),
    get_dataset_record: datasetRefused(({ datasetId, recordId }) =>
      api.get(`/api/v1/client/datasets/${datasetId}/records/${recordId}`, { token: adminOfB() }),
    ),
    create_dataset_record: datasetRefused(({ datasetId }) =>
      api.post(
        `/api/v1/client/datasets/${datasetId}/records`,
        { values: { name: 'x' } },
        { token: adminOfB() },
      ),
    ),
    update_dataset_record: datasetRefused(({ datasetId, recordId }) =>
      api.call('PATCH', `/api/v1/client/datasets/${datasetId}/records/${recordId}`, {
        token: adminOfB(),
        body: { values: { name: 'taken' } },
      }),
    ),
    delete_dataset_record: datasetRefused(({ datasetId, recordId }) =>
      api.call('DELETE', `/api/v1/client/datasets/${datasetId}/records/${recordId}`, { token: adminOfB() }),
    ),
    import_dataset_records_csv: datasetRefused(({ datasetId }) =>
      api.post(`/api/v1/client/datasets/${datasetId}/import/csv`, { csv: 'name\nx' }, { token: adminOfB() }),
    ),
    import_dataset_records: datasetRefused(({ datasetId }) =>
      api.post(
        `/api/v1/client/datasets/${datasetId}/import`,
        { records: [{ name: 'x' }] },
        { token: adminOfB() },
      ),
    ),
    list_points_of_interest: async () => {
      const id = await pointOfA();
      const answer = await api.get('/api/v1/client/points-of-interest', { token: adminOfB() });
      assert.ok(answer.body.points.every((point: { id: number }) => point.id !== id));
    },
    create_point_of_interest: async () => {
      const answer = await api.post(
        '/api/v1/client/points-of-interest',
        { name: 'B hub', category: 'hub', line1: '1 B street', lat: 1, lng: 1 },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      const asA = await api.get('/api/v1/client/points-of-interest', { token: tokenOfA });
      assert.ok(asA.body.points.every((point: { name: string }) => point.name !== 'B hub'));
    },
    update_point_of_interest: async () => {
      const id = await pointOfA();
      const answer = await api.call('PATCH', `/api/v1/client/points-of-interest/${id}`, {
        token: adminOfB(),
        body: { name: 'taken' },
      });
      assert.equal(answer.body.error_code, 'POI_NOT_FOUND');
      await pointOfAStays();
    },
    delete_point_of_interest: async () => {
      const id = await pointOfA();
      const answer = await api.call('DELETE', `/api/v1/client/points-of-interest/${id}`, {
        token: adminOfB(),
      });
      assert.equal(answer.body.error_code, 'POI_NOT_FOUND');
      await pointOfAStays();
    },
    geocode_address: async () => {
      await pointOfA();
      const ask = (token: string) => api.get('/api/v1/client/geocode?address=1%20A%20street', { token });
      assert.equal((await ask(tokenOfA)).body.found, true, "A's own hub places A's address");
      const answer = await ask(adminOfB());
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { result: true, found: false, place: null });
    },
    get_orders_summary: async () => {
      const ofA = await api.get('/api/v1/analytics/orders-summary?period=month', { token: tokenOfA });
      assert.ok(ofA.body.created >= 1, JSON.stringify(ofA.body));
      const ofB = await api.get('/api/v1/analytics/orders-summary?period=month', { token: adminOfB() });
      assert.equal(ofB.status, 200);
      assert.equal(ofB.body.created, 0);
      const named = await api.get(`/api/v1/analytics/orders-summary?customer_id=${a.userIds.customer}`, {
        token: adminOfB(),
      });
      assert.equal(named.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    daily_digest: async () => {
      const today = (await api.get('/api/v1/analytics/orders-summary', { token: tokenOfA })).body.period.from;
      const ofA = await api.get(`/api/v1/analytics/daily-digest?date=${today}`, { token: tokenOfA });
      assert.ok(ofA.body.figures.orders_in.value >= 1, JSON.stringify(ofA.body));
      const ofB = await api.get(`/api/v1/analytics/daily-digest?date=${today}`, { token: adminOfB() });
      assert.equal(ofB.status, 200);
      assert.equal(ofB.body.figures.orders_in.value, 0);
      assert.equal(ofB.body.exceptions.count, 0);
    },
    search_address: async () => {
      await savedAddressOfA();
      const answer = await api.get('/api/v1/client/addresses/search?q=secret%20place', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.matches, []);
    },
    list_saved_addresses: async () => {
      const id = await savedAddressOfA();
      const answer = await api.get('/api/v1/client/addresses', { token: adminOfB() });
      assert.ok(answer.body.addresses.every((address: { id: number }) => address.id !== id));
      const named = await api.get(`/api/v1/client/addresses?customer_id=${a.userIds.customer}`, {
        token: adminOfB(),
      });
      assert.equal(named.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    create_saved_address: async () => {
      const answer = await api.post(
        '/api/v1/client/addresses',
        { label: 'x', line1: 'y', customer_id: a.userIds.customer },
        { token: adminOfB() },
      );
      assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    update_saved_address: async () => {
      const id = await savedAddressOfA();
      const answer = await api.call('PATCH', `/api/v1/client/addresses/${id}`, {
        token: adminOfB(),
        body: { label: 'taken' },
      });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'ADDRESS_NOT_FOUND');
      await addressOfAUnchanged();
    },
    delete_saved_address: async () => {
      const id = await savedAddressOfA();
      const answer = await api.call('DELETE', `/api/v1/client/addresses/${id}`, { token: adminOfB() });
      assert.equal(answer.status, 404);
      await addressOfAUnchanged();
    },
    import_saved_addresses: async () => {
      const answer = await api.post(
        '/api/v1/client/addresses/import',
        { csv: 'label,line1\nx,y', customer_id: a.userIds.customer },
        { token: adminOfB() },
      );
      assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    list_alliances: async () => {
      const id = await allianceIdOfA();
      const answer = await api.get('/api/v1/client/alliances', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.alliances.every((alliance: { id: number }) => alliance.id !== id));
    },
    get_alliance: allianceRefused('GET', ''),
    list_alliance_members: allianceRefused('GET', '/members'),
    list_accessible_clients: async () => {
      await allianceIdOfA();
      const answer = await api.get('/api/v1/client/accessible-clients', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.clients, []);
    },
    create_alliance: async () => {
      const made = await api.post('/api/v1/client/alliances', { name: 'B only' }, { token: adminOfB() });
      assert.equal(made.status, 200);
      const asA = await api.get(`/api/v1/client/alliances/${made.body.alliance.id}`, { token: tokenOfA });
      assert.equal(asA.body.error_code, 'ALLIANCE_NOT_FOUND');
    },
    rename_alliance: allianceRefused('PATCH', '', { name: 'Taken by B' }),
    invite_to_alliance: allianceRefused('POST', '/invitations', { business_code: 'bravo' }),
    accept_alliance_invitation: allianceRefused('POST', '/accept'),
    decline_alliance_invitation: allianceRefused('POST', '/decline'),
    leave_alliance: allianceRefused('POST', '/leave'),
    remove_alliance_member: allianceRefused('DELETE', '/members/alpha'),
    dissolve_alliance: allianceRefused('DELETE', ''),
    set_alliance_grants: allianceRefused('PATCH', '/grants', { track_packages: false }),
    get_tracking_detail: async () => {
      await allianceIdOfA();
      const answer = await api.get(`/api/v1/client/trackings/${orderOfA.tracking_number}`, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.view, 'public');
      assert.equal(answer.body.timeline.subject.order_id, undefined);
    },
    get_order_audit_timeline: async () => {
      const answer = await api.get(`/api/v1/client/orders/${orderOfA.id}/audit-timeline`, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
    },
    run_graphql_query: async () => {
      // A GraphQL document run as B reads and writes only what B's own calls may.
      const answer = await api.post(
        '/api/v1/developer/graphql',
        {
          query: `query($id: Int!) { order(order_id: $id) { order { id } } }`,
          variables: { id: orderOfA.id },
        },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(
        answer.body.errors[0].extensions.error_code,
        'ORDER_NOT_FOUND',
        JSON.stringify(answer.body),
      );
      const cancel = await api.post(
        '/api/v1/developer/graphql',
        {
          query: `mutation($id: Int!) { cancelOrder(order_id: $id) { order { status } } }`,
          variables: { id: orderOfA.id },
        },
        { token: adminOfB() },
      );
      assert.equal(
        cancel.body.errors[0].extensions.error_code,
        'ORDER_NOT_FOUND',
        JSON.stringify(cancel.body),
      );
      assert.notEqual((await orderAsA()).status, 'CANCELLED');
    },
    propose_write: async () => {
      // B may propose a call on A's order; its preview (and, approved, its run) meets A's wall.
      const answer = await api.post(
        '/api/v1/agent/approvals',
        { tool: 'cancel_order', arguments: { order_id: orderOfA.id }, reason: 'probe' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.proposal.preview.error_code, 'ORDER_NOT_FOUND');
      const approved = await api.post(
        `/api/v1/agent/approvals/${answer.body.proposal.id}/approve`,
        {},
        {
          token: tokensOfB.employee!,
        },
      );
      assert.equal(
        approved.body.proposal.outcome.error_code,
        'ORDER_NOT_FOUND',
        JSON.stringify(approved.body),
      );
      assert.notEqual((await orderAsA()).status, 'CANCELLED');
    },
    list_pending_approvals: async () => {
      const id = await pendingProposalOfA();
      const answer = await api.get('/api/v1/agent/approvals', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.proposals.every((proposal: { id: number }) => proposal.id !== id));
    },
    approve_pending_write: proposalOfAStaysPending('approve'),
    reject_pending_write: proposalOfAStaysPending('reject'),
    get_driver_registrations: async () => {
      await pendingRegistrationOfA();
      const answer = await api.get('/api/v1/client/driver-registrations', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body.registrations, []);
      assert.equal(answer.body.total, 0);
    },
    approve_driver_registration: registrationOfAStaysPending('approve'),
    reject_driver_registration: registrationOfAStaysPending('reject'),
    create_order: async () => {
      const answer = await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: { line1: '1 B street' }, customer_id: a.userIds.customer },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    bulk_create_orders: async () => {
      const answer = await api.post(
        '/api/v1/client/orders/bulk',
        {
          orders: [
            { dropoff: { line1: 'x' }, customer_id: a.userIds.customer },
            { order_ref: orderOfA.order_ref, dropoff: { line1: 'y' } },
          ],
        },
        { token: adminOfB() },
      );
      assert.equal(answer.body.results[0].error_code, 'CUSTOMER_NOT_FOUND');
      // References are per business: B may reuse A's reference without touching A's order.
      assert.equal(answer.body.results[1].success, true);
      assert.equal((await orderAsA()).dropoff.line1, '1 A street');
    },
    get_orders: async () => {
      const all = await api.get('/api/v1/client/orders', { token: adminOfB() });
      assert.ok(all.body.orders.every((order: { id: number }) => order.id !== orderOfA.id));
      const byNumber = await api.get(`/api/v1/client/orders?tracking_number=${orderOfA.tracking_number}`, {
        token: adminOfB(),
      });
      assert.equal(byNumber.body.total, 0);
      // B's contractor cannot name A's business to look into it.
      const named = await api.get(`/api/v1/client/orders?business_id=${a.businessId}`, {
        token: tokensOfB.contractor,
      });
      assert.equal(named.status, 403);
      assert.equal(named.body.error_code, 'FORBIDDEN');
    },
    find_order: async () => {
      // A reference only A uses (B reuses 'only-in-a' on purpose in bulk_create_orders).
      const own = await api.post(
        '/api/v1/client/orderCreate',
        { order_ref: 'find-me-in-a', dropoff: { line1: 'x' } },
        { token: tokenOfA },
      );
      assert.equal(own.status, 200);
      assert.equal(
        (await api.get('/api/v1/client/orders/find?order_ref=find-me-in-a', { token: tokenOfA })).status,
        200,
      );
      for (const query of ['order_ref=find-me-in-a', `tracking_number=${orderOfA.tracking_number}`]) {
        assert.equal(
          (await api.get(`/api/v1/client/orders/find?${query}`, { token: adminOfB() })).status,
          404,
        );
      }
    },
    get_order_detail: async () => {
      assert.equal(
        (await api.get(`/api/v1/client/orders/${orderOfA.id}`, { token: adminOfB() })).status,
        404,
      );
    },
    cancel_order: refusedById('cancel'),
    hold_order: refusedById('hold'),
    release_order: refusedById('release'),
    update_order_status: refusedById('status', { status: 'PICKED_UP' }),
    upload_proof: async () => {
      const image = new PNG({ width: 2, height: 2 });
      const answer = await fetch(`${server.baseUrl}/api/v1/driver/orders/${orderOfA.id}/proofs?kind=photo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminOfB()}`, 'content-type': 'image/png' },
        body: PNG.sync.write(image),
      });
      assert.equal(answer.status, 404);
      assert.equal(((await answer.json()) as { error_code: string }).error_code, 'ORDER_NOT_FOUND');
    },
    reroute_to_address: refusedById('reroute', { dropoff: { line1: 'Elsewhere' } }),
    set_order_location: async () => {
      const before = await orderAsA();
      const answer = await api.call('PUT', `/api/v1/client/orders/${orderOfA.id}/location`, {
        token: adminOfB(),
        body: { lat: 1, lng: 1 },
      });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
      assert.deepEqual(await orderAsA(), before);
    },
    get_orders_needing_location: async () => {
      const answer = await api.get('/api/v1/client/orders/needs-location', { token: adminOfB() });
      assert.ok(answer.body.orders.every((row: { order: { id: number } }) => row.order.id !== orderOfA.id));
    },
    update_delivery_instruction: refusedById('delivery-instruction', { delivery_instruction: 'leave it' }),
    update_order_note: refusedById('note', { note: 'mine now' }),
    update_time_window_by_refs: async () => {
      const before = await orderAsA();
      const answer = await api.post(
        '/api/v1/client/orders/time-window',
        { order_refs: ['only-in-a'], time_window: { start: '08:00', end: '09:00' } },
        { token: adminOfB() },
      );
      // B has an order with the same reference (see bulk_create_orders); only B's may change.
      assert.equal(answer.status, 200);
      assert.deepEqual(await orderAsA(), before);
    },
    order_snapshot: async () => {
      const answer = await api.get('/api/v1/client/orders/snapshot?date=2026-11-03', { token: adminOfB() });
      assert.equal(answer.body.total, 0);
    },
    list_exceptions: async () => {
      const answer = await api.get('/api/v1/client/orders/exceptions', { token: adminOfB() });
      assert.ok(answer.body.exceptions.every((e: { order: { id: number } }) => e.order.id !== orderOfA.id));
    },
    create_depot: async () => {
      const answer = await api.post(
        '/api/v1/client/depots',
        { name: 'B depot', lat: 1, lng: 1 },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      const asA = await api.get('/api/v3/client/build-route/options?date=2026-11-03', { token: tokenOfA });
      assert.ok(asA.body.depots.every((d: { name: string }) => d.name !== 'B depot'));
    },
    set_driver_profile: async () => {
      const answer = await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/profile`, {
        token: adminOfB(),
        body: {
          capacity: { weight_grams: 1, volume_cm3: 1, count: 1 },
          shift: { start: '08:00', end: '09:00' },
        },
      });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'DRIVER_NOT_FOUND');
    },
    get_drivers: async () => {
      const answer = await api.get('/api/v1/client/drivers', { token: adminOfB() });
      assert.deepEqual(
        answer.body.drivers.map((d: { id: number }) => d.id),
        [b.userIds.driver],
      );
    },
    get_driver_routes_today: async () => {
      const answer = await api.get(`/api/v1/client/drivers/${a.userIds.driver}/routes/today`, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 404);
    },
    get_routes: async () => {
      const answer = await api.get('/api/v1/client/routes', { token: adminOfB() });
      assert.ok(
        answer.body.routes.every((r: { driver: { id: number } }) => r.driver.id !== a.userIds.driver),
      );
    },
    get_route_detail: async () => {
      const answer = await api.get(`/api/v1/client/routes/${routeOfA}`, { token: adminOfB() });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
    },
    get_dispatch_board: async () => {
      const asA = await api.get('/api/v1/client/dispatch/board?date=2026-11-04', { token: tokenOfA });
      assert.ok(
        asA.body.routes.some((r: { id: number }) => r.id === routeOfA),
        JSON.stringify(asA.body),
      );
      const answer = await api.get('/api/v1/client/dispatch/board?date=2026-11-04', { token: adminOfB() });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.ok(answer.body.routes.every((r: { id: number }) => r.id !== routeOfA));
      assert.ok(answer.body.exceptions.every((e: { order_id: number | null }) => e.order_id !== orderOfA.id));
    },
    get_my_routes: async () => {
      const answer = await api.get('/api/v1/driver/routes?date=2026-11-04', { token: tokensOfB.driver });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body.routes, []);
    },
    start_route: driverOfBOnRouteOfA('start'),
    arrive_at_stop: driverOfBOnRouteOfA('stops/1/arrive'),
    complete_stop: driverOfBOnRouteOfA('stops/1/complete', { outcome: 'delivered' }),
    report_positions: driverOfBOnRouteOfA('positions', {
      positions: [{ lat: 1, lng: 1, device_time: '2026-11-02T09:00:00Z' }],
    }),
    finish_route: driverOfBOnRouteOfA('finish'),
    scan_pickup_package: async () => {
      const answer = await api.get(`/api/v1/driver/routes/${routeOfA}/packages/${orderOfA.tracking_number}`, {
        token: tokensOfB.driver,
      });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
    },
    get_build_route_options: async () => {
      const answer = await api.get('/api/v3/client/build-route/options?date=2026-11-03', {
        token: adminOfB(),
      });
      assert.equal(answer.body.pool.orders, 0);
      assert.ok(answer.body.drivers.every((d: { id: number }) => d.id !== a.userIds.driver));
    },
    build_route: async () => {
      const answer = await api.post(
        '/api/v3/client/build-route',
        { date: '2026-11-04' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      assert.equal(answer.body.totals.orders, 0);
      assert.equal((await orderAsA()).status, 'HOLD');
    },
    create_vehicle: async () => {
      const answer = await api.post(
        '/api/v1/client/vehicles',
        { name: 'B van', capacity: { weight_grams: 1, volume_cm3: 1, count: 1 } },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      const asA = await api.get('/api/v1/client/vehicles', { token: tokenOfA });
      assert.ok(asA.body.vehicles.every((v: { name: string }) => v.name !== 'B van'));
    },
    get_vehicles: async () => {
      const answer = await api.get('/api/v1/client/vehicles', { token: adminOfB() });
      assert.ok(answer.body.vehicles.every((v: { name: string }) => v.name === 'B van'));
    },
    ...Object.fromEntries(
      (
        [
          ['assign_order_to_route', 'POST', 'stops', { order_id: 1 }],
          ['move_route_stop', 'POST', 'stops/1/move', {}],
          ['remove_route_stop', 'DELETE', 'stops/1', undefined],
          ['resequence_route', 'POST', 'sequence', { optimize: true }],
          ['change_route_driver', 'PUT', 'driver', { driver_id: 1 }],
          ['change_route_vehicle', 'PUT', 'vehicle', { vehicle_id: null }],
          ['lock_route', 'POST', 'lock', {}],
          ['unlock_route', 'POST', 'unlock', {}],
        ] as const
      ).map(([name, method, path, body]) => [
        name,
        async () => {
          const answer = await api.call(method, `/api/v1/client/routes/${routeOfA}/${path}`, {
            token: adminOfB(),
            body,
          });
          assert.equal(answer.status, 404);
          assert.equal(answer.body.error_code, 'ROUTE_NOT_FOUND');
        },
      ]),
    ),
    get_dispatch_settings: async () => {
      const answer = await api.get('/api/v1/client/dispatch-settings', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.settings.preparation_minutes, 30, "A's settings are not B's");
    },
    update_dispatch_settings: async () => {
      const answer = await api.call('PUT', '/api/v1/client/dispatch-settings', {
        token: adminOfB(),
        body: { preparation_minutes: 90 },
      });
      assert.equal(answer.status, 200);
      const asA = await api.get('/api/v1/client/dispatch-settings', { token: tokenOfA });
      assert.equal(asA.body.settings.preparation_minutes, 30, "B's change leaves A's settings alone");
    },
    create_contractor_rule: async () => {
      const answer = await api.post(
        '/api/v1/client/contractor-rules',
        { contractor_company_id: a.contractorCompanyId, postal_prefixes: ['75'], valid_from: '2026-11-01' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'CONTRACTOR_NOT_ENGAGED');
    },
    get_contractor_rules: async () => {
      for (const token of [adminOfB(), tokensOfB.contractor!]) {
        const answer = await api.get('/api/v1/client/contractor-rules', { token });
        assert.equal(answer.status, 200);
        assert.ok(answer.body.rules.every((rule: { id: number }) => rule.id !== ruleOfA));
      }
      const named = await api.get(`/api/v1/client/contractor-rules?business_id=${a.businessId}`, {
        token: tokensOfB.contractor,
      });
      assert.equal(named.status, 403);
    },
    delete_contractor_rule: async () => {
      const answer = await api.call('DELETE', `/api/v1/client/contractor-rules/${ruleOfA}`, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'CONTRACTOR_RULE_NOT_FOUND');
      const asA = await api.get('/api/v1/client/contractor-rules', { token: tokenOfA });
      assert.deepEqual(
        asA.body.rules.map((rule: { id: number }) => rule.id),
        [ruleOfA],
      );
    },
    get_broker_order_assignments: async () => {
      for (const token of [adminOfB(), tokensOfB.employee!, tokensOfB.contractor!]) {
        const answer = await api.get('/api/v1/broker-order-assignments', { token });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.total, 0);
      }
      const named = await api.get(`/api/v1/broker-order-assignments?business_id=${a.businessId}`, {
        token: tokensOfB.contractor,
      });
      assert.equal(named.status, 403);
    },
    assign_orders_to_broker: async () => {
      const foreignOrder = await api.post(
        '/api/v1/broker-order-assignments',
        { order_ids: [orderOfA.id], broker_id: b.userIds.contractor },
        { token: adminOfB() },
      );
      assert.equal(foreignOrder.body.assigned, 0);
      assert.match(foreignOrder.body.errors[0].message, /No order/);
      const ownOrder = await api.post(
        '/api/v1/client/orderCreate',
        { dropoff: { line1: 'B street' } },
        { token: adminOfB() },
      );
      const foreignBroker = await api.post(
        '/api/v1/broker-order-assignments',
        { order_ids: [ownOrder.body.order_id], broker_id: a.userIds.contractor },
        { token: adminOfB() },
      );
      assert.equal(foreignBroker.status, 422);
      assert.equal(foreignBroker.body.error_code, 'CONTRACTOR_NOT_FOUND');
      assert.equal(await activeBrokerOfA(), a.userIds.contractor);
    },
    revoke_broker_order_assignments: async () => {
      const answer = await api.post(
        '/api/v1/broker-order-assignments/revoke',
        { order_ids: [orderOfA.id] },
        { token: adminOfB() },
      );
      assert.equal(answer.body.revoked, 0);
      assert.equal(await activeBrokerOfA(), a.userIds.contractor);
    },
    release_broker_order_assignment: async () => {
      const own = await api.post(
        '/api/v1/broker-order-assignments/release',
        { order_id: orderOfA.id },
        { token: tokensOfB.contractor },
      );
      assert.equal(own.status, 400);
      assert.equal(own.body.error_code, 'ORDER_NOT_ASSIGNED_TO_YOU');
      const named = await api.post(
        '/api/v1/broker-order-assignments/release',
        { order_id: orderOfA.id, business_id: a.businessId },
        { token: tokensOfB.contractor },
      );
      assert.equal(named.status, 403);
      assert.equal(await activeBrokerOfA(), a.userIds.contractor);
    },
    set_platform_module: async () => {
      for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
        const answer = await api.call('PUT', '/api/v1/platform/modules/contractor_assignment', {
          token: tokensOfB[kind],
          body: { available: false },
        });
        assert.equal(answer.status, 403, kind);
      }
      assert.equal((await api.get('/api/v1/broker-order-assignments', { token: tokenOfA })).status, 200);
    },
    set_business_module: async () => {
      const answer = await api.call(
        'PUT',
        `/api/v1/platform/businesses/${a.businessId}/modules/contractor_assignment`,
        {
          token: adminOfB(),
          body: { enabled: false },
        },
      );
      assert.equal(answer.status, 403);
      const me = await api.get('/api/v1/user/me', { token: tokenOfA });
      assert.equal(me.body.business.modules.contractor_assignment, true);
    },
    create_tracking_provider: async () => {
      const answer = await api.post(
        '/api/v1/client/otep/providers',
        { name: 'B pusher' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200);
      const pushed = await pushToA(answer.body.provider.key);
      assert.equal(pushed.status, 422);
    },
    get_tracking_providers: async () => {
      const answer = await api.get('/api/v1/client/otep/providers', { token: adminOfB() });
      assert.ok(answer.body.providers.every((p: { id: number }) => p.id !== providerOfA.id));
    },
    revoke_tracking_provider: async () => {
      const answer = await api.post(
        `/api/v1/client/otep/providers/${providerOfA.id}/revoke`,
        {},
        { token: adminOfB() },
      );
      assert.equal(answer.status, 404);
      assert.equal((await pushToA(providerOfA.key)).status, 200, "A's own key still works");
    },
    otep_ingest: async () => {
      const before = await eventsOfA();
      const answer = await pushToA(providerKeyOfB);
      assert.equal(answer.status, 422);
      assert.equal(answer.body.details.errors[0].code, 'unknown_tracking_number');
      assert.equal(await eventsOfA(), before);
    },
    otep_ingest_epcis: async () => {
      const before = await eventsOfA();
      const epcis = (await api.get(`/api/v1/otep/trackings/${orderOfA.tracking_number}?format=epcis`)).body
        .data;
      const answer = await api.post('/api/v1/otep/ingest/epcis', epcis, {
        headers: { 'x-otep-provider-key': providerKeyOfB },
      });
      assert.equal(answer.status, 422);
      assert.equal(await eventsOfA(), before);
    },
    set_customer_price_visibility: async () => {
      const answer = await api.call(
        'PUT',
        `/api/v1/client/customers/${a.userIds.customer}/price-visibility`,
        {
          token: adminOfB(),
          body: { hidden: { local_delivery: true } },
        },
      );
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    get_customer_price_visibility: async () => {
      const answer = await api.get(`/api/v1/client/customers/${a.userIds.customer}/price-visibility`, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 422);
    },
    get_customer_settings: async () => {
      const answer = await api.get('/api/v1/customer/settings', { token: tokensOfB.customer });
      assert.equal(answer.body.customer_id, b.userIds.customer);
    },
    pay_order: async () => {
      for (const token of [adminOfB(), tokensOfB.customer!]) {
        const answer = await api.post(
          `/api/v1/payments/orders/${orderOfA.id}`,
          { method: 'card', card_token: 'tok_visa' },
          { token },
        );
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error_code, 'ORDER_NOT_FOUND');
      }
    },
    add_account_credit: async () => {
      const answer = await api.post(
        `/api/v1/client/customers/${a.userIds.customer}/credits`,
        { amount: 100, currency: 'EUR', reason: 'gift' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    get_account_credits: async () => {
      const answer = await api.get('/api/v1/customer/credits', { token: tokensOfB.customer });
      assert.deepEqual(answer.body.ledger, []);
    },
    get_webhook_settings: async () => {
      const foreign = await api.get(`/api/v1/webhook-settings?customer_id=${a.userIds.customer}`, {
        token: adminOfB(),
      });
      assert.equal(foreign.status, 422);
      const own = await api.get('/api/v1/webhook-settings', { token: adminOfB() });
      assert.equal(own.body.urls['order.created'], '');
    },
    update_webhook_settings: async () => {
      const answer = await api.call('PUT', '/api/v1/webhook-settings', {
        token: adminOfB(),
        body: { customer_id: a.userIds.customer, urls: { 'order.created': 'https://b.example/hook' } },
      });
      assert.equal(answer.status, 422);
      assert.equal(answer.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    save_identity_provider: async () => {
      for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
        const answer = await api.call('PUT', '/api/v1/platform/identity-providers/google', {
          token: tokensOfB[kind],
          body: { preset: 'google' },
        });
        assert.equal(answer.status, 403, kind);
      }
    },
    get_identity_providers: async () => {
      for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
        assert.equal(
          (await api.get('/api/v1/platform/identity-providers', { token: tokensOfB[kind] })).status,
          403,
        );
      }
    },
    save_app: async () => {
      for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
        const answer = await api.call('PUT', `/api/v1/platform/apps/${appOfA}`, {
          token: tokensOfB[kind],
          body: { name: 'Taken over', type: 'customer', schema_version: 1, allowed_roles: ['customer'] },
        });
        assert.equal(answer.status, 403, kind);
      }
    },
    get_apps: async () => {
      for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
        assert.equal((await api.get('/api/v1/platform/apps', { token: tokensOfB[kind] })).status, 403);
      }
    },
    save_app_assignment: async () => {
      for (const kind of ACCOUNT_KINDS.filter((k) => k !== 'platform_admin')) {
        const answer = await api.call('PUT', `/api/v1/platform/apps/${appOfA}/clients/${a.code}`, {
          token: tokensOfB[kind],
          body: { enabled: false },
        });
        assert.equal(answer.status, 403, kind);
      }
      assert.equal((await api.get(`/api/v1/apps/${appOfA}/clients/${a.code}/bootstrap`)).status, 200);
    },
    get_app_assignment: async () => {
      const answer = await api.get(`/api/v1/platform/apps/${appOfA}/clients/${a.code}`, {
        token: adminOfB(),
      });
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'APP_NOT_FOUND');
      const own = await api.get(`/api/v1/platform/apps/${appOfA}/clients/${a.code}`, { token: tokenOfA });
      assert.equal(own.status, 200);
    },
    get_app_assignments: async () => {
      const answer = await api.get('/api/v1/platform/app-assignments', { token: adminOfB() });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.assignments.every((row: { client_code: string }) => row.client_code !== a.code));
    },
    get_webhook_delivery_logs: async () => {
      const answer = await api.get('/api/v1/webhook-deliveries', { token: adminOfB() });
      assert.ok(answer.body.deliveries.every((d: { id: number }) => d.id !== deliveryOfA));
    },
    replay_webhook_delivery: async () => {
      const answer = await api.post(
        `/api/v1/webhook-deliveries/${deliveryOfA}/replay`,
        {},
        { token: adminOfB() },
      );
      assert.equal(answer.status, 404);
      assert.equal(answer.body.error_code, 'WEBHOOK_DELIVERY_NOT_FOUND');
    },
    test_webhook_delivery: async () => {
      // B has no settings of its own: A's secret is never used for B's test.
      const answer = await api.post(
        '/api/v1/webhook-settings/test',
        { url: 'https://b.example/hook' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 409);
      assert.equal(answer.body.error_code, 'WEBHOOK_SECRET_MISSING');
    },
    get_operation_events: async () => {
      const answer = await api.post(
        '/api/v1/tracking/operationevents',
        { order_ids: [orderOfA.id] },
        { token: adminOfB() },
      );
      assert.deepEqual(answer.body.events, []);
    },
    get_shipping_methods: async () => {
      await labelOfA();
      const answer = await api.get('/api/v1/shipping/methods', { token: tokensOfB.customer });
      assert.equal(answer.status, 200);
      assert.ok(answer.body.methods.every((m: { carrier_name: string }) => m.carrier_name !== 'A Post'));
    },
    get_shipping_carriers: async () => {
      await labelOfA();
      const answer = await api.get('/api/v1/shipping/carriers', { token: adminOfB() });
      assert.ok(answer.body.carriers.every((c: { name: string }) => c.name !== 'A Post'));
    },
    save_shipping_carrier: async () => {
      await labelOfA();
      // B may use the same code for a carrier of its own (inactive here): A's stays as it is.
      const answer = await api.call('PUT', '/api/v1/shipping/carriers/a-post', {
        token: adminOfB(),
        body: { ...A_CARRIER, name: 'B copy', active: false },
      });
      assert.equal(answer.status, 200);
      const asA = await api.get('/api/v1/shipping/carriers', { token: tokenOfA });
      const own = asA.body.carriers.find((c: { code: string }) => c.code === 'a-post');
      assert.deepEqual([own.name, own.version, own.active], ['A Post', 1, true]);
    },
    get_shipping_rate: carrierOfAUnknownToB('/api/v1/labelservice/rate', {}),
    create_shipping_label: carrierOfAUnknownToB('/api/v1/labelservice/submitOrder', { service: 'ground' }),
    quote_and_ship: async () => {
      await carrierOfAUnknownToB('/api/v1/shipping/quote-and-ship', {})();
      const anyCarrier = await api.post('/api/v1/shipping/quote-and-ship', PARCEL, {
        token: tokensOfB.customer,
      });
      assert.equal(anyCarrier.status, 422);
      assert.equal(anyCarrier.body.error_code, 'NO_CARRIER_AVAILABLE');
    },
    compare_all_carriers: async () => {
      await labelOfA();
      const answer = await api.post('/api/v1/shipping/compare', PARCEL, { token: adminOfB() });
      assert.deepEqual(answer.body.rates, []);
    },
    get_shipping_label: async () => {
      const { trackingNumber } = await labelOfA();
      for (const token of [adminOfB(), tokensOfB.customer!]) {
        const answer = await api.get(`/api/v1/labelservice/labels/${trackingNumber}`, { token });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error_code, 'LABEL_NOT_FOUND');
      }
    },
    get_me: async () => {
      for (const kind of ACCOUNT_KINDS) {
        const me = await api.get('/api/v1/user/me', { token: tokensOfB[kind] });
        assert.equal(me.status, 200);
        assert.equal(me.body.user.id, b.userIds[kind]);
        const text = JSON.stringify(me.body);
        assert.ok(!text.includes(a.code), `${kind} of B sees business A: ${text}`);
        assert.ok(!text.includes(`@${a.code}.test`), `${kind} of B sees an account of A`);
      }
    },
    get_warehouses: async () => {
      await warehouseOfA();
      const answer = await api.get('/api/v1/client/warehouses', { token: adminOfB() });
      assert.deepEqual([answer.status, answer.body.total], [200, 0]);
    },
    get_inventory: async () => {
      const { id } = await warehouseOfA();
      const all = await api.get('/api/v1/client/inventory', { token: adminOfB() });
      assert.deepEqual([all.status, all.body.total], [200, 0]);
      const named = await api.get(`/api/v1/client/inventory?warehouse_id=${id}`, { token: adminOfB() });
      assert.equal(named.body.error_code, 'WAREHOUSE_NOT_FOUND');
    },
    create_warehouse: async () => {
      await warehouseOfA();
      // The same code in B is B's own: codes are unique per business, and A's list is unchanged.
      const answer = await api.post(
        '/api/v1/client/warehouses',
        { code: 'A-WH', name: 'B', line1: 'B street', time_zone: 'UTC' },
        { token: adminOfB() },
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const asA = await api.get('/api/v1/client/warehouses', { token: tokenOfA });
      assert.ok(asA.body.warehouses.every((w: { name: string }) => w.name !== 'B'));
    },
    update_warehouse: warehouseOfANotFound(({ id }) =>
      api.call('PATCH', `/api/v1/client/warehouses/${id}`, { token: adminOfB(), body: { name: 'taken' } }),
    ),
    create_warehouse_location: warehouseOfANotFound(({ id }) =>
      api.post(
        `/api/v1/client/warehouses/${id}/locations`,
        { code: 'B-BIN', kind: 'bin', capacity: 1 },
        { token: adminOfB() },
      ),
    ),
    update_warehouse_location: warehouseOfANotFound(({ id, binId }) =>
      api.call('PATCH', `/api/v1/client/warehouses/${id}/locations/${binId}`, {
        token: adminOfB(),
        body: { code: 'B-BIN', capacity: 0 },
      }),
    ),
    set_warehouse_staff: warehouseOfANotFound(({ id }) =>
      api.call('PUT', `/api/v1/client/warehouses/${id}/staff`, { token: adminOfB(), body: { user_ids: [] } }),
    ),
    receive_packages: warehouseOfANotFound(({ id, trackingNumber }) =>
      api.post(
        `/api/v1/warehouse/${id}/receive`,
        { tracking_numbers: [trackingNumber] },
        { token: adminOfB() },
      ),
    ),
    receive_stock: async () => {
      const { id } = await warehouseOfA();
      const answer = await api.post(
        `/api/v1/warehouse/${id}/receive-stock`,
        { customer_id: b.userIds.customer, sku: 'X', quantity: 1, scan_id: 'gun-1:1' },
        { token: adminOfB() },
      );
      assert.equal(answer.body.error_code, 'WAREHOUSE_NOT_FOUND');
      const ofA = await api.post(
        `/api/v1/warehouse/${id}/receive-stock`,
        { customer_id: a.userIds.customer, sku: 'X', quantity: 1, scan_id: 'gun-1:2' },
        { token: adminOfB() },
      );
      assert.equal(ofA.body.error_code, 'CUSTOMER_NOT_FOUND');
    },
    putaway: warehouseOfANotFound(({ id, binId, trackingNumber }) =>
      api.post(
        `/api/v1/warehouse/${id}/putaway`,
        { tracking_number: trackingNumber, location_id: binId },
        { token: adminOfB() },
      ),
    ),
    sort_package: warehouseOfANotFound(({ id, trackingNumber }) =>
      api.post(`/api/v1/warehouse/${id}/sort`, { tracking_number: trackingNumber }, { token: adminOfB() }),
    ),
    get_route_sorting: warehouseOfANotFound(({ id }) =>
      api.get(`/api/v1/warehouse/${id}/sorting`, { token: adminOfB() }),
    ),
    load_package: warehouseOfANotFound(({ id, trackingNumber }) =>
      api.post(
        `/api/v1/warehouse/${id}/routes/${routeOfA}/load`,
        { tracking_number: trackingNumber },
        { token: adminOfB() },
      ),
    ),
    get_route_outbound: warehouseOfANotFound(({ id }) =>
      api.get(`/api/v1/warehouse/${id}/routes/${routeOfA}/outbound`, { token: adminOfB() }),
    ),
    dispatch_route: warehouseOfANotFound(({ id }) =>
      api.post(`/api/v1/warehouse/${id}/routes/${routeOfA}/dispatch`, {}, { token: adminOfB() }),
    ),
    transfer_packages: async () => {
      const { id, trackingNumber } = await warehouseOfA();
      const own = await api.post(
        '/api/v1/client/warehouses',
        { code: 'B-WH', name: 'B WH', line1: 'B street', time_zone: 'UTC' },
        { token: adminOfB() },
      );
      const answer = await api.post(
        '/api/v1/client/warehouse-transfers',
        { from_warehouse_id: id, to_warehouse_id: own.body.warehouse.id, tracking_numbers: [trackingNumber] },
        { token: adminOfB() },
      );
      assert.equal(answer.body.error_code, 'WAREHOUSE_NOT_FOUND');
      await parcelOfAStays();
    },
    rollback_warehouse_transfer: async () => {
      const { transferId } = await warehouseOfA();
      const answer = await api.post(
        `/api/v1/client/warehouse-transfers/${transferId}/rollback`,
        {},
        { token: adminOfB() },
      );
      assert.deepEqual([answer.status, answer.body.error_code], [404, 'TRANSFER_NOT_FOUND']);
      await parcelOfAStays();
    },
    logout: async () => {
      const tokenOfA = await login(api, a.emails.client_admin);
      const spare = await login(api, b.emails.client_admin);
      assert.equal((await api.post('/api/v1/user/logout', {}, { token: spare })).status, 200);
      assert.equal((await api.get('/api/v1/user/me', { token: tokenOfA })).status, 200);
    },
  };

  before(async () => {
    // Loopback allowed for webhooks: A's receiver is a closed local port, so its delivery fails fast.
    const { webhooks } = loadConfig({ LOG_LEVEL: 'silent' });
    server = await startTestServer({
      webhooks: { ...webhooks, allow: { ...webhooks.allow, loopback: true } },
    });
    api = client(server.baseUrl);
    a = await createTenant(server.db, server.app.services, 'alpha');
    b = await createTenant(server.db, server.app.services, 'bravo');
    for (const kind of ACCOUNT_KINDS) tokensOfB[kind] = await login(api, b.emails[kind]);
    tokenOfA = await login(api, a.emails.client_admin);
    const created = await api.post(
      '/api/v1/client/orderCreate',
      { order_ref: 'only-in-a', scheduled_date: '2026-11-03', dropoff: { line1: '1 A street' } },
      { token: tokenOfA },
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    orderOfA = {
      id: created.body.order_id,
      order_ref: 'only-in-a',
      tracking_number: created.body.tracking_number,
    };
    // A route of A's, planned from one located order on a driver with a depot.
    const depot = await api.post(
      '/api/v1/client/depots',
      { name: 'A depot', lat: 48.85, lng: 2.35 },
      { token: tokenOfA },
    );
    await api.call('PUT', `/api/v1/client/drivers/${a.userIds.driver}/profile`, {
      token: tokenOfA,
      body: {
        depot_id: depot.body.depot.id,
        capacity: { weight_grams: 100_000, volume_cm3: 1_000_000, count: 50 },
        shift: { start: '08:00', end: '18:00' },
      },
    });
    await api.post(
      '/api/v1/client/orderCreate',
      { scheduled_date: '2026-11-04', dropoff: { line1: 'x', lat: 48.86, lng: 2.36 } },
      { token: tokenOfA },
    );
    const built = await api.post('/api/v3/client/build-route', { date: '2026-11-04' }, { token: tokenOfA });
    assert.equal(built.body.routes.length, 1, JSON.stringify(built.body));
    routeOfA = built.body.routes[0].id;
    const rule = await api.post(
      '/api/v1/client/contractor-rules',
      { contractor_company_id: a.contractorCompanyId, postal_prefixes: ['75'], valid_from: '2026-11-01' },
      { token: tokenOfA },
    );
    assert.equal(rule.status, 200, JSON.stringify(rule.body));
    ruleOfA = rule.body.rule.id;
    // Held, so it shows among A's exceptions and must not among B's.
    await api.post(`/api/v1/client/orders/${orderOfA.id}/hold`, {}, { token: tokenOfA });
    const providerA = await api.post(
      '/api/v1/client/otep/providers',
      { name: 'A pusher' },
      { token: tokenOfA },
    );
    providerOfA = providerA.body.provider;
    providerKeyOfB = (
      await api.post('/api/v1/client/otep/providers', { name: 'B own pusher' }, { token: adminOfB() })
    ).body.provider.key;
    // A webhook of A's to a closed port: a failed delivery logged for A.
    await api.call('PUT', '/api/v1/webhook-settings', {
      token: tokenOfA,
      body: { urls: { 'order.created': 'http://127.0.0.1:9/hook' } },
    });
    await api.post('/api/v1/client/orderCreate', { dropoff: { line1: 'hook' } }, { token: tokenOfA });
    await server.app.outbox.drainOnce();
    deliveryOfA = (await api.get('/api/v1/webhook-deliveries', { token: tokenOfA })).body.deliveries[0].id;
    // Contractor assignment on for both businesses; A hands its held order to its contractor.
    const platform = await login(api, a.emails.platform_admin);
    await api.call('PUT', '/api/v1/platform/modules/contractor_assignment', {
      token: platform,
      body: { available: true },
    });
    for (const business of [a, b]) {
      await api.call(
        'PUT',
        `/api/v1/platform/businesses/${business.businessId}/modules/contractor_assignment`,
        {
          token: platform,
          body: { enabled: true },
        },
      );
    }
    const assigned = await api.post(
      '/api/v1/broker-order-assignments',
      { order_ids: [orderOfA.id], broker_id: a.userIds.contractor },
      { token: tokenOfA },
    );
    assert.equal(assigned.body.assigned, 1, JSON.stringify(assigned.body));
    const app = await api.call('PUT', `/api/v1/platform/apps/${appOfA}`, {
      token: platform,
      body: { name: 'A app', type: 'customer', schema_version: 1, allowed_roles: ['customer'] },
    });
    assert.equal(app.status, 200, JSON.stringify(app.body));
    const assignment = await api.call('PUT', `/api/v1/platform/apps/${appOfA}/clients/${a.code}`, {
      token: platform,
      body: {},
    });
    assert.equal(assignment.status, 200, JSON.stringify(assignment.body));
  });
  after(() => server.close());

  it('has a cross-tenant check for every operation that needs a token', () => {
    const guarded = server.app.catalog.list().filter((operation) => !operation.access.public);
    const unchecked = guarded.map((operation) => operation.name).filter((name) => !(name in checks));
    assert.deepEqual(unchecked, []);
  });

  for (const [name, check] of Object.entries(checks)) {
    it(`keeps ${name} inside the caller's business`, check);
  }
});
