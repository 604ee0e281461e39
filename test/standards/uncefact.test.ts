import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Quad } from 'n3';
import { PARCEL } from '../../src/modules/tracking/projections/fixtures.ts';
import { uncefact } from '../../src/modules/tracking/projections/uncefact.ts';
import { type ExpandedNode, expand, nodesOf, quadsOf, statementsOf } from './jsonld.ts';
import { BASE_URL, standardsTimelines } from './timelines.ts';

/**
 * The oracle is the UN/CEFACT web vocabulary (release 22A, see uncefact/SOURCE.md): one file per
 * term, with a property's `rangeIncludes` and `domainIncludes` and a code list's values. Each
 * document is expanded by a JSON-LD processor; then every term of the vocabulary's namespace must
 * be one of its classes or properties, used on a class of its domain, with a value of its range.
 */
const UNECE = 'https://vocabulary.uncefact.org/';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

interface TermFile {
  uri: string;
  rangeIncludes?: Array<{ uri: string }>;
  domainIncludes?: Array<{ uri: string }>;
  values?: Array<{ uri: string }>;
}

/**
 * `https://vocabulary.uncefact.org/TradeAddress` → the term's file, or undefined when it has none.
 * Files are named by the lower-cased term; a property named like a class (`transportEvent`,
 * `TransportEvent`) has `property` appended. The file's own `uri` says which term it is.
 */
function termFile(iri: string): TermFile | undefined {
  const local = iri.slice(UNECE.length);
  for (const name of [local.toLowerCase(), `${local.toLowerCase()}property`]) {
    const file = new URL(`./uncefact/_data/${name}.json`, import.meta.url);
    if (!existsSync(file)) continue;
    const term: TermFile = JSON.parse(readFileSync(file, 'utf8'));
    if (term.uri === `unece:${local}`) return term;
  }
  return undefined;
}

const full = (curie: string) => curie.replace(/^unece:/, UNECE).replace(/^xsd:/, XSD);

/** xsd:decimal's lexical space: digits with an optional fraction, no exponent. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * Does the value fit one of the property's declared ranges? A literal's datatype is the one RDF
 * gives it: a JSON number is an xsd:double or xsd:integer, never an xsd:decimal.
 */
function fitsRange(value: ExpandedNode, ranges: string[]): boolean {
  return ranges.some((range) => {
    const literal = value['@value'];
    const datatype = value['@type'] as unknown as string | undefined;
    if (range === `${XSD}string`) return typeof literal === 'string' && datatype === undefined;
    if (range === `${XSD}decimal`)
      return datatype === range && typeof literal === 'string' && DECIMAL.test(literal);
    if (value['@type']?.includes(range)) return true;
    // A reference to a member of a code list: `CountryId#DE` is a CountryId.
    const members = termFile(range)?.values?.map((member) => full(member.uri)) ?? [];
    return value['@id'] !== undefined && Object.keys(value).length === 1 && members.includes(value['@id']);
  });
}

/** What the vocabulary has against the document: unknown terms, domains and ranges not met. */
async function problemsOf(document: unknown): Promise<string[]> {
  const problems: string[] = [];
  for (const node of nodesOf(await expand(document))) {
    const types = node['@type'] ?? [];
    for (const type of types.filter((iri) => iri.startsWith(UNECE))) {
      if (!termFile(type)) problems.push(`class ${type} is not in the vocabulary`);
    }
    for (const [property, value] of statementsOf(node)) {
      if (!property.startsWith(UNECE)) continue;
      const term = termFile(property);
      if (!term?.rangeIncludes) {
        problems.push(`property ${property} is not in the vocabulary`);
        continue;
      }
      const domains = (term.domainIncludes ?? []).map((domain) => full(domain.uri));
      if (!types.some((type) => domains.includes(type))) {
        problems.push(`${property} on ${types.join(' ') || 'an untyped node'}, outside its domain`);
      }
      const ranges = term.rangeIncludes.map((range) => full(range.uri));
      if (!fitsRange(value, ranges)) {
        problems.push(`${property} = ${JSON.stringify(value)}, outside its range ${ranges.join(' | ')}`);
      }
    }
  }
  return problems;
}

describe('uncefact against the UN/CEFACT vocabulary', () => {
  for (const { name, timeline } of standardsTimelines()) {
    it(`${name}: every term exists, in its domain, with a value of its range`, async () => {
      assert.deepEqual(await problemsOf(uncefact(timeline, { baseUrl: BASE_URL })), []);
    });
  }

  it('is checked by an oracle that refuses a bare country code, bare coordinates and unknown terms', async () => {
    const document = uncefact(PARCEL, { baseUrl: BASE_URL }) as Record<string, unknown>;
    type Place = Record<'postalAddress' | 'physicalGeographicalCoordinate', Record<string, unknown>> & {
      regionName?: string;
    };
    const events = document.transportEvent as Array<{ occurrenceLogisticsLocation: Place }>;
    // The Frankfurt hub: address, coordinates and GLN.
    const location = events[2]!.occurrenceLogisticsLocation;
    location.postalAddress.tradeAddressCountryId = 'DE';
    location.physicalGeographicalCoordinate.latitudeMeasure = 50.0379;
    location.regionName = 'HE';
    assert.deepEqual((await problemsOf(document)).map((problem) => problem.split(', outside')[0]).sort(), [
      `${UNECE}latitudeMeasure = {"@value":50.0379}`,
      `${UNECE}tradeAddressCountryId = {"@value":"DE"}`,
      `property ${UNECE}regionName is not in the vocabulary`,
    ]);
  });
  it('writes coordinates as xsd:decimal literals in RDF, beside the region and the location code', async () => {
    // The Frankfurt hub (GLN, region, coordinates) and a buoy so near the equator that JavaScript
    // writes its latitude with an exponent, which xsd:decimal has no room for.
    const buoy = { name: 'Gulf of Guinea buoy', region: 'Lagos', country: 'NG', lat: 1e-7, lng: -0.25 };
    const [, , hubScan] = PARCEL.events;
    const timeline = {
      ...PARCEL,
      events: [hubScan!, { ...hubScan!, event_id: 'evt-buoy', location: buoy }],
    };
    const quads = await quadsOf(uncefact(timeline, { baseUrl: BASE_URL }));
    const objectsOf = (subject: Quad['subject'] | Quad['object'], property: string) =>
      quads
        .filter((quad) => quad.subject.equals(subject) && quad.predicate.value === `${UNECE}${property}`)
        .map((quad) => quad.object);
    const literal = (term: Quad['object']) => [
      term.value,
      term.termType === 'Literal' ? term.datatype.value : '',
    ];
    const locations = quads
      .filter((quad) => quad.predicate.value === `${UNECE}occurrenceLogisticsLocation`)
      .map((quad) => quad.object);
    const described = locations.map((location) => {
      const [address] = objectsOf(location, 'postalAddress');
      const [coordinate] = objectsOf(location, 'physicalGeographicalCoordinate');
      const measure = (axis: string) =>
        objectsOf(objectsOf(coordinate!, axis)[0]!, 'MeasureTypeValue').map(literal)[0];
      return {
        code: objectsOf(location, 'identifier').map(literal)[0],
        region: objectsOf(address!, 'countrySubDivisionName').map(literal)[0],
        latitude: measure('latitudeMeasure'),
        longitude: measure('longitudeMeasure'),
      };
    });
    // RDF has no order: the locations are compared by region.
    described.sort((a, b) => String(a.region).localeCompare(String(b.region)));
    assert.deepEqual(described, [
      {
        code: ['4012345000016', `${XSD}string`],
        region: ['HE', `${XSD}string`],
        latitude: ['50.0379', `${XSD}decimal`],
        longitude: ['8.5622', `${XSD}decimal`],
      },
      {
        code: undefined,
        region: ['Lagos', `${XSD}string`],
        latitude: ['0.0000001', `${XSD}decimal`],
        longitude: ['-0.25', `${XSD}decimal`],
      },
    ]);
  });
});
