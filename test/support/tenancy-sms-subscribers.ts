import assert from 'node:assert/strict';
import { SMS_SETTINGS } from './sms.ts';
import { adminOfB, api, type Checks, listsNothingOfAIn, tokenOfA } from './tenancy.ts';

const SETTINGS_OF_B = { ...SMS_SETTINGS, help_text: 'B only: help at b.example' };

/** SMS marketing on and set up in A and B, and one pending subscriber of A's. */
let madeOfA: Promise<{ subscriber: number; phone: string }> | undefined;
const ofA = () =>
  (madeOfA ??= (async () => {
    for (const [token, settings] of [
      [tokenOfA, SMS_SETTINGS],
      [adminOfB(), SETTINGS_OF_B],
    ] as const) {
      const on = await api.call('PUT', '/api/v1/client/feature-families/sms_marketing', {
        token,
        body: { enabled: true },
      });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      const saved = await api.call('PUT', '/api/v1/sms/settings', { token, body: settings });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
    }
    const made = await api.post(
      '/api/v1/sms/subscribers',
      { phone: '0612121212', source: 'api', tags: ['of-a'] },
      { token: tokenOfA },
    );
    assert.equal(made.status, 200, JSON.stringify(made.body));
    return { subscriber: made.body.subscriber.id as number, phone: made.body.subscriber.phone as string };
  })());

const asA = async () => {
  const { subscriber } = await ofA();
  return {
    list: (await api.get('/api/v1/sms/subscribers', { token: tokenOfA })).body,
    one: (await api.get(`/api/v1/sms/subscribers/${subscriber}`, { token: tokenOfA })).body,
    settings: (await api.get('/api/v1/sms/settings', { token: tokenOfA })).body,
  };
};

/** B's admin on A's subscriber: refused as unknown, and A's subscribers unchanged. */
const refusedToB = (method: string, body?: object) => async () => {
  const { subscriber } = await ofA();
  const before = await asA();
  const answer = await api.call(method, `/api/v1/sms/subscribers/${subscriber}`, {
    token: adminOfB(),
    ...(body ? { body } : {}),
  });
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.error_code, 'SMS_SUBSCRIBER_NOT_FOUND');
  assert.deepEqual(await asA(), before);
};

export const smsSubscriberChecks: Checks = {
  set_sms_settings: async () => {
    await ofA();
    const before = await asA();
    const saved = await api.call('PUT', '/api/v1/sms/settings', {
      token: adminOfB(),
      body: { ...SETTINGS_OF_B, sender: '+33700000099' },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(await asA(), before);
  },
  get_sms_settings: async () => {
    await ofA();
    const read = await api.get('/api/v1/sms/settings', { token: adminOfB() });
    assert.equal(read.body.settings.help_text, SETTINGS_OF_B.help_text, "B reads its own, never A's");
  },
  create_sms_subscriber: async () => {
    const { subscriber, phone } = await ofA();
    const before = await asA();
    const made = await api.post('/api/v1/sms/subscribers', { phone, source: 'api' }, { token: adminOfB() });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.outcome, 'pending', "the same number is a new subscriber of B's");
    assert.notEqual(made.body.subscriber.id, subscriber);
    assert.deepEqual((await asA()).one, before.one);
  },
  list_sms_subscribers: listsNothingOfAIn(ofA, '/api/v1/sms/subscribers?tag=of-a', 'subscribers', 'id'),
  get_sms_subscriber: refusedToB('GET'),
  update_sms_subscriber: refusedToB('PATCH', { tags: ['taken-by-b'] }),
  delete_sms_subscriber: refusedToB('DELETE'),
  import_sms_subscribers: async () => {
    const { phone } = await ofA();
    const before = await asA();
    const imported = await api.post(
      '/api/v1/sms/subscribers/import',
      {
        rows: [
          {
            phone,
            consent_text: 'B says yes',
            consent_version: 'b-1',
            consented_at: '2026-01-01T00:00:00Z',
          },
        ],
      },
      { token: adminOfB() },
    );
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    assert.deepEqual((await asA()).one, before.one, "A's subscriber stays pending");
  },
};
