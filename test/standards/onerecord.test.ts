import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Parser, type Quad } from 'n3';
import { PARCEL } from '../../src/modules/tracking/projections/fixtures.ts';
import { onerecord } from '../../src/modules/tracking/projections/onerecord.ts';
import { type ExpandedNode, expand, nodesOf, statementsOf } from './jsonld.ts';
import { BASE_URL, standardsTimelines } from './timelines.ts';

/**
 * The oracle is IATA's ONE Record ontology for data model 3.2 and its code lists (see
 * onerecord/SOURCE.md), read with an RDF parser. Each document is expanded by a JSON-LD processor;
 * then every cargo: class and property must be in the ontology, each property used on a class whose
 * restrictions (its own or a superclass's) name it, with a value of its rdfs:range.
 */
const CARGO = 'https://onerecord.iata.org/ns/cargo#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const OWL = 'http://www.w3.org/2002/07/owl#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

function quadsOf(file: string): Quad[] {
  return new Parser().parse(readFileSync(new URL(`./onerecord/${file}`, import.meta.url), 'utf8'));
}

class Ontology {
  readonly classes = new Set<string>();
  readonly ranges = new Map<string, string>();
  /** Named individuals with their classes: cargo:ACTUAL, the code lists' members. */
  readonly individuals = new Map<string, Set<string>>();
  private readonly superclasses = new Map<string, Set<string>>();
  /** Per class, the properties its own restrictions name. */
  private readonly restricted = new Map<string, Set<string>>();

  constructor(quads: Quad[]) {
    const onProperty = new Map<string, string>();
    const named = new Set<string>();
    for (const { subject, predicate, object } of quads) {
      if (predicate.value === `${OWL}onProperty`) onProperty.set(subject.value, object.value);
      if (predicate.value === RDF_TYPE && object.value === `${OWL}NamedIndividual`) named.add(subject.value);
    }
    const add = (map: Map<string, Set<string>>, key: string, value: string) =>
      map.set(key, (map.get(key) ?? new Set()).add(value));
    for (const { subject, predicate, object } of quads) {
      const [s, p, o] = [subject.value, predicate.value, object.value];
      if (p === RDF_TYPE && o === `${OWL}Class` && subject.termType === 'NamedNode') this.classes.add(s);
      if (p === `${RDFS}range`) this.ranges.set(s, o);
      if (p === RDF_TYPE && named.has(s) && o !== `${OWL}NamedIndividual`) {
        add(this.individuals, s, o);
      }
      if (p === `${RDFS}subClassOf`) {
        if (object.termType === 'NamedNode') add(this.superclasses, s, o);
        else if (onProperty.has(o)) add(this.restricted, s, onProperty.get(o)!);
      }
    }
  }

  /** The class and every class above it. */
  lineage(type: string): Set<string> {
    const found = new Set([type]);
    for (const current of found) for (const parent of this.superclasses.get(current) ?? []) found.add(parent);
    return found;
  }

  allows(type: string, property: string): boolean {
    return [...this.lineage(type)].some((ancestor) => this.restricted.get(ancestor)?.has(property));
  }
}

const ontology = new Ontology([...quadsOf('IATA-1R-DM-Ontology.ttl'), ...quadsOf('IATA-1R-CL-Ontology.ttl')]);
const CODE_LISTS = 'https://onerecord.iata.org/ns/code-lists/';

/** The datatype a JSON-LD literal has once expanded: its @type, or the one its JSON value implies. */
function datatypeOf(value: ExpandedNode): string | undefined {
  if (!('@value' in value)) return undefined;
  if (value['@type']) return value['@type'] as unknown as string;
  const literal = value['@value'];
  if (typeof literal === 'string') return `${XSD}string`;
  if (typeof literal === 'boolean') return `${XSD}boolean`;
  return Number.isInteger(literal) ? `${XSD}integer` : `${XSD}double`;
}

function fitsRange(value: ExpandedNode, range: string): boolean {
  if (range.startsWith(XSD)) return datatypeOf(value) === range;
  const types = value['@type'] ?? [...(ontology.individuals.get(value['@id'] ?? '') ?? [])];
  if (types.some((type) => ontology.lineage(type).has(range))) return true;
  // eventCode and its kind "can hold a named individual of" a code list (the ontology's words).
  return range === `${CARGO}CodeListElement` && types.some((type) => type.startsWith(CODE_LISTS));
}

async function problemsOf(document: unknown): Promise<string[]> {
  const problems: string[] = [];
  for (const node of nodesOf(await expand(document))) {
    const types = node['@type'] ?? [];
    for (const type of types.filter((iri) => iri.startsWith(CARGO))) {
      if (!ontology.classes.has(type)) problems.push(`class ${type} is not in the ontology`);
    }
    for (const [property, value] of statementsOf(node)) {
      if (!property.startsWith(CARGO)) continue;
      const range = ontology.ranges.get(property);
      if (!range) {
        problems.push(`property ${property} is not in the ontology`);
        continue;
      }
      if (!types.some((type) => ontology.allows(type, property))) {
        problems.push(`${property} on ${types.join(' ') || 'an untyped node'}, outside its domain`);
      }
      if (!fitsRange(value, range))
        problems.push(`${property} = ${JSON.stringify(value)}, outside its range ${range}`);
    }
  }
  return problems;
}

describe('onerecord against the ONE Record 3.2 ontology', () => {
  it('reads the 3.2 ontology', () => {
    const version = quadsOf('IATA-1R-DM-Ontology.ttl').find(
      (quad) => quad.predicate.value === `${OWL}versionIRI`,
    );
    assert.equal(version?.object.value, 'https://onerecord.iata.org/ns/cargo/3.2');
  });

  for (const { name, timeline } of standardsTimelines()) {
    it(`${name}: every cargo: term is in the ontology, on its classes, with a value of its range`, async () => {
      assert.deepEqual(await problemsOf(onerecord(timeline, { baseUrl: BASE_URL })), []);
    });
  }

  it('is checked by an oracle that refuses regionName, a text postalCode and a property off its class', async () => {
    const document = onerecord(PARCEL, { baseUrl: BASE_URL });
    // The Frankfurt hub's event: address with region, postcode and country.
    const event = document['@graph'][2] as { 'cargo:eventLocation': Record<string, unknown> };
    const location = event['cargo:eventLocation'];
    const address = location['cargo:address'] as Record<string, unknown>;
    address['cargo:regionName'] = 'HE';
    address['cargo:postalCode'] = '60549';
    location['cargo:eventName'] = 'Hub';
    assert.deepEqual(
      (await problemsOf(document)).map((problem) => problem.split(' = ')[0]!.split(', outside')[0]).sort(),
      [
        `${CARGO}eventName on ${CARGO}Location`,
        `${CARGO}postalCode`,
        `property ${CARGO}regionName is not in the ontology`,
      ],
    );
  });
});
