import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { BASE_URL, PARCEL } from './fixtures.ts';
import { FORMAT_NAMES, FORMATS } from './registry.ts';

/**
 * Every format's document of the parcel fixture, compared with the one committed in golden/.
 * After a deliberate change: `UPDATE_GOLDEN=1 npm test -- src/modules/tracking/projections/golden.test.ts`,
 * then `npx biome format --write src/modules/tracking/projections/golden`, and read the diff.
 */
const UPDATE = process.env.UPDATE_GOLDEN === '1';

describe('golden documents of the parcel fixture', () => {
  for (const name of FORMAT_NAMES) {
    it(name, () => {
      const file = new URL(`./golden/${name}.json`, import.meta.url);
      // Through JSON, as the service sends it: undefined members disappear.
      const document = JSON.parse(JSON.stringify(FORMATS[name]!.project(PARCEL, { baseUrl: BASE_URL })));
      if (UPDATE) writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
      assert.deepEqual(document, JSON.parse(readFileSync(file, 'utf8')));
    });
  }
});
