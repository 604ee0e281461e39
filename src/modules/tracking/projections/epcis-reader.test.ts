import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CODEBOOK, codeEntry } from '../codebook.ts';
import type { OtepEvent } from '../timeline.ts';
import { epcis } from './epcis.ts';
import { codeFromCbv, eventsFromEpcis } from './epcis-reader.ts';
import { BASE_URL, PARCEL, singleEventTimelines } from './fixtures.ts';

/** The reader with its messages in English. */
const readEpcis = (document: unknown) => eventsFromEpcis(document, 'en');

/** What a source would have pushed for a stored event: the service adds the rest. */
function asPushed(event: OtepEvent) {
  const {
    recorded_at: _recorded,
    otep_version: _version,
    status_uri: _uri,
    phase: _phase,
    ...pushed
  } = event;
  return pushed;
}

function objectEvent(fields: Record<string, unknown>) {
  return {
    type: 'ObjectEvent',
    action: 'OBSERVE',
    eventTime: '2026-11-04T18:45:00.000Z',
    eventTimeZoneOffset: '-05:00',
    epcList: ['urn:epc:id:sscc:0614141.1234567890'],
    ...fields,
  };
}

const documentOf = (...eventList: unknown[]) => ({ type: 'EPCISDocument', epcisBody: { eventList } });

describe('eventsFromEpcis', () => {
  it('reads back the events of our own EPCIS document', () => {
    const read = readEpcis(epcis(PARCEL, { baseUrl: BASE_URL }));
    assert.deepEqual(read.errors, []);
    assert.deepEqual(
      read.events.map((entry) => entry.subject),
      PARCEL.events.map(() => ({ tracking_number: 'TMS7K2M9Q4XZ1', gs1_sscc: '040123450000001235' })),
    );
    assert.deepEqual(
      read.events.map((entry) => entry.event),
      PARCEL.events.map(asPushed),
    );
  });

  it('reads back one event of every code', () => {
    for (const timeline of singleEventTimelines()) {
      const read = readEpcis(epcis(timeline, { baseUrl: BASE_URL }));
      assert.deepEqual(read.errors, []);
      assert.deepEqual(
        read.events.map((entry) => entry.event),
        timeline.events.map(asPushed),
      );
    }
  });

  it('maps every bizStep and disposition pair of the codebook back to a code with that pair', () => {
    for (const entry of CODEBOOK) {
      const code = codeFromCbv(entry.bizStep, entry.disposition);
      const back = codeEntry(code ?? '');
      assert.deepEqual([back?.bizStep, back?.disposition], [entry.bizStep, entry.disposition], entry.code);
    }
    // Shared pairs: the least alarming reading wins.
    assert.equal(codeFromCbv('receiving', 'in_progress'), 'received');
    assert.equal(codeFromCbv('holding', 'in_progress'), 'delivery_rescheduled');
    assert.equal(codeFromCbv('departing', 'in_transit'), 'in_transit');
    assert.equal(codeFromCbv('receiving', `${BASE_URL}/api/otep-guide/ns#received`), 'delivered');
  });

  it("reads another system's event: CBV URNs, an SSCC URN, an SGLN read point, its own eventID", () => {
    const read = readEpcis(
      documentOf(
        objectEvent({
          eventID:
            'ni:///sha-256;df7bb3c352fef055578554f09f5e2aa41782150ced7bd0b8af24dd3ccb30ba69?ver=CBV2.0',
          bizStep: 'urn:epcglobal:cbv:bizstep:shipping',
          disposition: 'https://ref.gs1.org/cbv/Disp-in_transit',
          readPoint: { id: 'urn:epc:id:sgln:0614141.07346.0' },
        }),
      ),
    );
    assert.deepEqual(read, {
      errors: [],
      events: [
        {
          subject: { gs1_sscc: '106141412345678908' },
          event: {
            occurred_at: '2026-11-04T13:45:00-05:00',
            status_code: 'in_transit',
            source: { type: 'provider_push' },
            location: { gln: '0614141073467' },
            event_id:
              'ni:///sha-256;df7bb3c352fef055578554f09f5e2aa41782150ced7bd0b8af24dd3ccb30ba69?ver=CBV2.0',
          },
        },
      ],
    });
  });

  it('prefers otep:status_code, in short or addressed form, to bizStep and disposition', () => {
    const read = readEpcis(
      documentOf(
        objectEvent({
          bizStep: 'holding',
          disposition: 'in_progress',
          'otep:status_code': 'otep:parcel:delivery_failed',
        }),
      ),
    );
    assert.equal(read.events[0]?.event.status_code, 'delivery_failed');
  });

  it('writes a zero offset as Z and keeps milliseconds only when there are some', () => {
    const read = readEpcis(
      documentOf(
        objectEvent({
          eventTime: '2026-11-02T19:05:00Z',
          eventTimeZoneOffset: '+00:00',
          bizStep: 'arriving',
        }),
        objectEvent({
          eventTime: '2026-11-02T19:05:00.250+00:00',
          eventTimeZoneOffset: '+05:30',
          bizStep: 'arriving',
        }),
      ),
    );
    assert.deepEqual(
      read.events.map((entry) => entry.event.occurred_at),
      ['2026-11-02T19:05:00Z', '2026-11-03T00:35:00.250+05:30'],
    );
  });

  it('reports every event it cannot read, with its path, and returns no event for it', () => {
    const read = readEpcis(
      documentOf(
        objectEvent({ bizStep: 'receiving', disposition: 'in_progress' }),
        { type: 'AggregationEvent' },
        objectEvent({ eventTimeZoneOffset: undefined, bizStep: 'inspecting' }),
        objectEvent({ epcList: ['urn:epc:id:sgtin:0614141.107346.2018'], bizStep: 'receiving' }),
        objectEvent({ 'otep:status_code': 'teleported', 'otep:incident_reason': { 'otep:code': 'aliens' } }),
      ),
    );
    assert.equal(read.events.length, 1);
    assert.deepEqual(
      read.errors.map((error) => error.path),
      [
        'epcisBody.eventList[1].type',
        'epcisBody.eventList[2].eventTimeZoneOffset',
        'epcisBody.eventList[2].bizStep',
        'epcisBody.eventList[3].epcList',
        'epcisBody.eventList[4].otep:status_code',
        'epcisBody.eventList[4].otep:incident_reason.code',
      ],
    );
  });

  it('refuses what is not an EPCIS document', () => {
    assert.deepEqual(readEpcis('hello').errors, [
      { path: '', message: 'Expected an EPCIS document (a JSON object).' },
    ]);
    assert.deepEqual(
      readEpcis({ type: 'EPCISDocument' }).errors.map((error) => error.path),
      ['epcisBody.eventList'],
    );
  });

  it('reads the event list of a query document', () => {
    const read = readEpcis({
      type: 'EPCISQueryDocument',
      epcisBody: { queryResults: { resultsBody: { eventList: [objectEvent({ bizStep: 'arriving' })] } } },
    });
    assert.deepEqual(read.errors, []);
    assert.equal(read.events[0]?.event.status_code, 'arrival_scan');
  });
});
