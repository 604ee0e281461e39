import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { preferredRepresentation } from '../../../platform/http/media-types.ts';
import { BASE_URL, PARCEL } from './fixtures.ts';
import { FORMAT_MEDIA_TYPES, FORMAT_NAMES, FORMATS, formatOfMediaType } from './registry.ts';

/** The format the REST door's negotiation picks among the formats' media types. */
const formatForAccept = (accept: string | undefined) =>
  formatOfMediaType(preferredRepresentation(accept, FORMAT_MEDIA_TYPES));

const EPCIS_PROFILE = 'application/ld+json; profile="https://ref.gs1.org/standards/epcis"';

describe('FORMATS', () => {
  it('lists exactly the 14 formats, each with a media type of its own', () => {
    const names = [
      'otep',
      'epcis',
      'onerecord',
      'uncefact',
      'otlp',
      'sensorthings',
      'aftership',
      'shopify',
      'amazon',
      'walmart',
      'bigcommerce',
      'magento',
      'woocommerce',
      'etsy',
    ];
    assert.deepEqual([...FORMAT_NAMES], names);
    assert.deepEqual(Object.keys(FORMATS), names);
    const mediaTypes = names.map((name) => FORMATS[name]!.mediaType);
    assert.equal(new Set(mediaTypes).size, names.length);
    assert.equal(FORMATS.epcis!.mediaType, EPCIS_PROFILE);
    assert.equal(FORMATS.otep!.mediaType, 'application/vnd.otep+json');
  });

  it('projects the parcel and an empty timeline with every format', () => {
    const empty = { ...PARCEL, events: [], current_status: undefined, delivered: false };
    for (const name of FORMAT_NAMES) {
      for (const timeline of [PARCEL, empty]) {
        assert.doesNotThrow(
          () => JSON.stringify(FORMATS[name]!.project(timeline, { baseUrl: BASE_URL })),
          name,
        );
      }
    }
  });

  it('builds the same URIs with or without a trailing slash on the base URL', () => {
    const epcis = FORMATS.epcis!.project;
    assert.deepEqual(epcis(PARCEL, { baseUrl: `${BASE_URL}/` }), epcis(PARCEL, { baseUrl: BASE_URL }));
  });
});

describe('negotiating a format by Accept', () => {
  it('picks epcis for the GS1 profile, quoted or not, alone or in a profile list', () => {
    assert.equal(formatForAccept(EPCIS_PROFILE), 'epcis');
    assert.equal(formatForAccept('application/ld+json;profile=https://ref.gs1.org/standards/epcis'), 'epcis');
    assert.equal(
      formatForAccept(
        'application/ld+json; profile="http://www.w3.org/ns/json-ld#compacted https://ref.gs1.org/standards/epcis"',
      ),
      'epcis',
    );
  });

  it('knows every format by its own media type', () => {
    for (const name of FORMAT_NAMES) assert.equal(formatForAccept(FORMATS[name]!.mediaType), name);
  });

  it('follows the quality order, then the order written', () => {
    assert.equal(formatForAccept(`application/vnd.otep.otlp+json;q=0.5, ${EPCIS_PROFILE}`), 'epcis');
    assert.equal(formatForAccept('application/vnd.otep.otlp+json, application/vnd.otep.amazon+json'), 'otlp');
    assert.equal(formatForAccept(`${EPCIS_PROFILE};q=0, application/vnd.otep+json;q=0.1`), 'otep');
  });

  it('names no format for wildcards, plain JSON, JSON-LD without a profile of ours, or nothing', () => {
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/json',
      'application/ld+json',
      'text/html,*/*;q=0.8',
    ]) {
      assert.equal(formatForAccept(accept), undefined, accept);
    }
  });
});
