import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { jsonSchemaOf } from './json-schema.ts';
import { NamedSchemas } from './named-schemas.ts';

const status = z.enum(['open', 'shut']).meta({ title: 'DoorStatus' });
const door = z
  .object({ id: z.int(), status, opened_at: z.string().default('never') })
  .meta({ title: 'Door' });

describe('named types of the contract', () => {
  it('lists a titled schema once and refers to it from every place, the place keeping its own description', () => {
    const named = new NamedSchemas();
    const answer = named.refer(
      jsonSchemaOf(z.object({ door, doors: z.array(door), now: status.describe('As it is now') }), 'output'),
      'output',
    );
    assert.deepEqual(answer.properties?.door, { $ref: '#/components/schemas/Door' });
    assert.deepEqual(answer.properties?.doors?.items, { $ref: '#/components/schemas/Door' });
    assert.deepEqual(answer.properties?.now, {
      $ref: '#/components/schemas/DoorStatus',
      description: 'As it is now',
    });
    const components = named.components();
    assert.deepEqual(Object.keys(components), ['Door', 'DoorStatus']);
    assert.deepEqual(components.Door?.properties?.status, { $ref: '#/components/schemas/DoorStatus' });
    assert.equal(components.DoorStatus?.title, undefined, 'the name is the key');
  });

  it("names a type's input form apart where it differs from the answer, and shares it where it does not", () => {
    const named = new NamedSchemas();
    const input = named.refer(jsonSchemaOf(z.object({ door, status }), 'input'), 'input');
    named.refer(jsonSchemaOf(z.object({ door, status }), 'output'), 'output');
    const components = named.components();
    // A default makes opened_at optional to send and always present in the answer.
    assert.deepEqual(input.properties?.door, { $ref: '#/components/schemas/DoorInput' });
    assert.deepEqual(components.DoorInput?.required, ['id', 'status']);
    assert.deepEqual(components.Door?.required, ['id', 'status', 'opened_at']);
    assert.deepEqual(input.properties?.status, { $ref: '#/components/schemas/DoorStatus' });
    assert.deepEqual(Object.keys(components), ['Door', 'DoorInput', 'DoorStatus']);
  });

  it('names apart the input form of a type whose only difference is a named type it holds', () => {
    // Strict: its own two forms read the same, the Door it holds apart.
    const porch = z.strictObject({ door }).meta({ title: 'Porch' });
    const named = new NamedSchemas();
    const input = named.refer(jsonSchemaOf(z.object({ porch }), 'input'), 'input');
    const answer = named.refer(jsonSchemaOf(z.object({ porch }), 'output'), 'output');
    const components = named.components();
    assert.deepEqual(input.properties?.porch, { $ref: '#/components/schemas/PorchInput' });
    assert.deepEqual(answer.properties?.porch, { $ref: '#/components/schemas/Porch' });
    assert.deepEqual(components.PorchInput?.properties?.door, { $ref: '#/components/schemas/DoorInput' });
    assert.deepEqual(components.Porch?.properties?.door, { $ref: '#/components/schemas/Door' });
  });

  it('refuses one title on two shapes, and leaves a field called title alone', () => {
    const named = new NamedSchemas();
    named.refer(jsonSchemaOf(door, 'output'), 'output');
    const other = z.object({ id: z.string() }).meta({ title: 'Door' });
    assert.throws(() => named.refer(jsonSchemaOf(other, 'output'), 'output'), /both named Door/);
    const post = named.refer(
      jsonSchemaOf(z.object({ title: z.string(), description: z.string() }), 'output'),
      'output',
    );
    assert.deepEqual(Object.keys(post.properties ?? {}), ['title', 'description']);
  });
});
