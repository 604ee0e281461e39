import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isExperimental } from './codebook.ts';
import { ERROR_CASES, setAt, WARNING_CASES } from './fixtures/issue-cases.ts';
import { CONFORMANT_TIMELINES, deliveredJourney } from './fixtures/timelines.ts';
import { schemaUrl, timelineJsonSchema } from './schema.ts';
import { PATTERNS, validateTimeline } from './validator.ts';

// Strict mode: an unknown keyword or a type-less applicator in the schema fails the compile.
// strictRequired is off: `anyOf: [{ required: [name] }]` names properties declared beside it.
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats.default(ajv);
const schemaValid = ajv.compile(timelineJsonSchema('https://tms.example.com'));

const schemaErrors = (timeline: unknown) =>
  schemaValid(timeline)
    ? []
    : (schemaValid.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);

describe('timelineJsonSchema', () => {
  it('is a draft 2020-12 schema published under the guide', () => {
    const schema = timelineJsonSchema('https://tms.example.com/');
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(schema.$id, 'https://tms.example.com/api/otep-guide/schema.json');
    assert.equal(schemaUrl('https://tms.example.com'), schema.$id);
  });

  for (const [name, timeline] of Object.entries(CONFORMANT_TIMELINES)) {
    it(`accepts the ${name} fixture, which the validator accepts`, () => {
      assert.equal(validateTimeline(timeline(), 'en').conformant, true);
      assert.deepEqual(schemaErrors(timeline()), []);
    });
  }

  it('rejects a timeline with an unknown status code, as the validator does', () => {
    const timeline = deliveredJourney();
    setAt(timeline, 'events[4].status_code', 'teleported');
    assert.equal(validateTimeline(timeline, 'en').conformant, false);
    assert.notDeepEqual(schemaErrors(timeline), []);
  });

  it('rejects every timeline the validator reports an error for', () => {
    const accepted = ERROR_CASES.filter((issueCase) => schemaValid(issueCase.input())).map(
      (issueCase) => `${issueCase.code} at ${issueCase.path} ${issueCase.label ?? ''}`,
    );
    assert.deepEqual(accepted, []);
  });

  it('accepts the timelines that only have warnings', () => {
    for (const issueCase of WARNING_CASES) {
      assert.deepEqual(schemaErrors(issueCase.input()), [], `${issueCase.code} at ${issueCase.path}`);
    }
  });

  it('publishes the experimental-code pattern the codebook applies', () => {
    const pattern = new RegExp(PATTERNS.experimentalCode);
    for (const code of ['x-locker', 'x-a_b-c9', 'x-', 'x-Locker', 'y-locker', 'x-lock er', 'delivered']) {
      assert.equal(pattern.test(code), isExperimental(code), code);
    }
  });
});
