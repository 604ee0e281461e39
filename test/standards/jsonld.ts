import jsonld from 'jsonld';
import { Parser, type Quad } from 'n3';

/** A node of an expanded JSON-LD document: `@id`, `@type` and properties by full IRI. */
export interface ExpandedNode {
  '@id'?: string;
  '@type'?: string[];
  '@value'?: unknown;
  [property: string]: unknown;
}

/**
 * The document expanded by a JSON-LD processor, so every term is read as the IRI the document's
 * own context makes of it. Offline: a document that names a remote context fails here.
 */
export async function expand(document: unknown): Promise<ExpandedNode[]> {
  const documentLoader = async (url: string) => {
    throw new Error(`remote context ${url}: the documents are expected to carry their context inline`);
  };
  return (await jsonld.expand(JSON.parse(JSON.stringify(document)), { documentLoader })) as ExpandedNode[];
}

/** The document as RDF, as a JSON-LD processor turns it into N-Quads and an RDF parser reads them back. */
export async function quadsOf(document: unknown): Promise<Quad[]> {
  const documentLoader = async (url: string) => {
    throw new Error(`remote context ${url}: the documents are expected to carry their context inline`);
  };
  const nquads = (await jsonld.toRDF(JSON.parse(JSON.stringify(document)), {
    format: 'application/n-quads',
    documentLoader,
  })) as unknown as string;
  return new Parser({ format: 'N-Quads' }).parse(nquads);
}

/** Every node object of an expanded document, nested ones included, each once. */
export function nodesOf(expanded: ExpandedNode[]): ExpandedNode[] {
  const found: ExpandedNode[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null || '@value' in value) return;
    const node = value as ExpandedNode;
    found.push(node);
    for (const [key, member] of Object.entries(node))
      if (!key.startsWith('@') || key === '@graph') visit(member);
  };
  visit(expanded);
  return found;
}

/** The property/value pairs of a node, each value alone (arrays spread), keywords left out. */
export function statementsOf(node: ExpandedNode): Array<[string, ExpandedNode]> {
  return Object.entries(node)
    .filter(([key]) => !key.startsWith('@'))
    .flatMap(([property, values]) =>
      (values as ExpandedNode[]).map((value): [string, ExpandedNode] => [property, value]),
    );
}
