/**
 * Addresses the tracking module publishes under the service's public base URL. The base URL may
 * end with a slash (it is configuration); it is trimmed here, once.
 */

/** The base URL without trailing slashes, ready for a path: `https://tms.example.com`. */
export function serviceRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** The OTEP guide and the resources published beside it. */
export function guideUrls(baseUrl: string) {
  const api = `${serviceRoot(baseUrl)}/api`;
  return {
    api,
    html: `${api}/otep-guide`,
    markdown: `${api}/otep-guide.md`,
    codebook: `${api}/otep-guide/codebook`,
    codebookJson: `${api}/otep-guide/codebook.json`,
    schema: `${api}/otep-guide/schema.json`,
    /** Our vocabulary: the `otep:` prefix of the JSON-LD formats. */
    namespace: `${api}/otep-guide/ns#`,
  };
}
