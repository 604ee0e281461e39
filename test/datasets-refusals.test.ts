import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addRecord,
  admin,
  api,
  employee,
  fieldsAtFault,
  type Json,
  records,
  search,
  server,
  setUpDatasets,
  tenant,
} from './support/datasets.ts';
import { issuedToken, login } from './support/fixtures.ts';

describe('datasets', () => {
  before(setUpDatasets);
  after(() => server.close());

  it('checks each record against the schema: 422 naming the field, in the caller language', async () => {
    const refused = await api.post(
      records(),
      { values: { name: '', status: 'demolished', docks: 'many', opened_on: '2026-13-01', colour: 'red' } },
      { token: employee, headers: { 'accept-language': 'fr' } },
    );
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error_code, 'VALIDATION_FAILED');
    assert.deepEqual(fieldsAtFault(refused.body), [
      'values.colour',
      'values.docks',
      'values.name',
      'values.opened_on',
      'values.site',
      'values.status',
    ]);
    assert.match(refused.body.message, /^Certains champs sont invalides/);
    const unknown = refused.body.details.fields.find((field: Json) => field.field === 'values.colour');
    assert.equal(unknown.message, 'Aucun champ colour dans ce jeu de données.');
    const halfPoint = await addRecord({
      name: 'x',
      status: 'open',
      site: { text: '1 Rue X, Lyon', lat: 45.7 },
    });
    assert.deepEqual(fieldsAtFault(halfPoint.body), ['values.site.lng']);
    const tooLarge = await addRecord({
      name: 'x'.repeat(2_000),
      status: 'open',
      site: { text: 'y'.repeat(300) },
    });
    assert.equal(tooLarge.status, 200, 'a record within the limits is kept');
    await api.call('DELETE', `${records()}/${tooLarge.body.record.id}`, { token: admin });
  });

  it('deletes a group only empty, or with its datasets ungrouped', async () => {
    const group = await api.post('/api/v1/client/dataset-groups', { name: 'Temporary' }, { token: admin });
    const groupId = group.body.group.id;
    const dataset = await api.post(
      '/api/v1/client/datasets',
      { name: 'Scratch', group_id: groupId, fields: [{ name: 'note', type: 'text' }] },
      { token: admin },
    );
    const refused = await api.call('DELETE', `/api/v1/client/dataset-groups/${groupId}`, { token: admin });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error_code, 'DATASET_GROUP_NOT_EMPTY');
    const renamed = await api.call('PATCH', `/api/v1/client/dataset-groups/${groupId}`, {
      token: admin,
      body: { name: 'Scratchpad' },
    });
    assert.equal(renamed.body.group.name, 'Scratchpad');
    const deleted = await api.call(
      'DELETE',
      `/api/v1/client/dataset-groups/${groupId}?ungroup_datasets=true`,
      {
        token: admin,
      },
    );
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.ungrouped_datasets, 1);
    const kept = await api.get(`/api/v1/client/datasets/${dataset.body.dataset.id}`, { token: admin });
    assert.equal(kept.body.dataset.group, null);
    await addRecord({ note: 'one' }, admin, dataset.body.dataset.id);
    const removed = await api.call('DELETE', `/api/v1/client/datasets/${dataset.body.dataset.id}`, {
      token: admin,
    });
    assert.deepEqual(removed.body, { result: true, deleted: dataset.body.dataset.id, deleted_records: 1 });
    const gone = await api.get(`/api/v1/client/datasets/${dataset.body.dataset.id}`, { token: admin });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error_code, 'DATASET_NOT_FOUND');
  });

  it('refuses the wrong kind and a missing scope', async () => {
    for (const kind of ['driver', 'customer', 'contractor'] as const) {
      const token = await login(api, tenant.emails[kind]);
      const answer = await api.get('/api/v1/client/datasets', { token });
      assert.equal(answer.status, 403, kind);
      assert.equal(answer.body.error_code, 'FORBIDDEN', kind);
    }
    // Employees keep records; the shape of the data is the admin's.
    const design = await api.post(
      '/api/v1/client/datasets',
      { name: 'By an employee', fields: [{ name: 'x', type: 'text' }] },
      { token: employee },
    );
    assert.equal(design.body.error_code, 'FORBIDDEN');
    const readOnly = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
      profile: 'datasets-readonly',
    });
    assert.equal((await search({ q: 'perrache' }, readOnly)).status, 200);
    assert.equal((await api.get('/api/v1/client/dataset-groups', { token: readOnly })).status, 200);
    const write = await addRecord({ name: 'x', status: 'open', site: { text: 'somewhere' } }, readOnly);
    assert.equal(write.status, 403);
    assert.equal(write.body.error_code, 'INSUFFICIENT_SCOPE');
    const opsReadOnly = await issuedToken(server, {
      userId: tenant.userIds.client_admin,
      kind: 'agent',
    });
    const read = await api.get('/api/v1/client/datasets', { token: opsReadOnly });
    assert.equal(read.body.error_code, 'INSUFFICIENT_SCOPE');
  });
});
