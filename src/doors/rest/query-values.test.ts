import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { type JsonSchema, jsonSchemaOf } from '../json-schema.ts';
import { textValueReader } from './query-values.ts';

const STATUSES = ['NEW', 'HOLD', 'DONE'] as const;
const input = z.object({
  status: z.array(z.enum(STATUSES)).optional(),
  ids: z.array(z.int()).optional(),
  flag: z.boolean().default(false),
  page: z.int().min(1).default(1),
  ratio: z.number().nullable().optional(),
  name: z.string().optional(),
});
const read = textValueReader(jsonSchemaOf(input, 'input') as JsonSchema);

describe('reading query-string text by the input schema', () => {
  it('reads a list from a comma-separated value, a repeated parameter or both', () => {
    assert.deepEqual(read({ status: 'HOLD, DONE' }), { status: ['HOLD', 'DONE'] });
    assert.deepEqual(read({ status: ['HOLD', 'DONE,NEW'] }), { status: ['HOLD', 'DONE', 'NEW'] });
    assert.deepEqual(read({ status: 'NEW' }), { status: ['NEW'] });
    assert.deepEqual(read({ ids: '3,4' }), { ids: [3, 4] });
  });

  it('reads booleans from true, false, 1 and 0, and numbers from decimal text', () => {
    assert.deepEqual(read({ flag: 'true' }), { flag: true });
    assert.deepEqual(read({ flag: '1' }), { flag: true });
    assert.deepEqual(read({ flag: 'false' }), { flag: false });
    assert.deepEqual(read({ flag: '0' }), { flag: false });
    assert.deepEqual(read({ page: '12' }), { page: 12 });
    assert.deepEqual(read({ ratio: '-0.5' }), { ratio: -0.5 });
  });

  it('leaves text it cannot read, empty list pieces and text fields as they are', () => {
    assert.deepEqual(read({ flag: 'yes', page: 'many', ratio: '' }), {
      flag: 'yes',
      page: 'many',
      ratio: '',
    });
    assert.deepEqual(read({ status: '' }), { status: [''] });
    assert.deepEqual(read({ ids: '3,,x' }), { ids: [3, '', 'x'] });
    assert.deepEqual(read({ name: '42', unknown: 'true' }), { name: '42', unknown: 'true' });
    assert.equal(input.safeParse(read({ status: 'HOLD,' })).success, false);
  });
});
