// The developer module (what integrators learn the API from: endpoints, GraphQL, guides, the guidance file): what the composition root may use.
export {
  type ApiSurface,
  developerOperations,
  type Endpoint,
  type GraphqlOperation,
  GUIDES,
  type GuideName,
} from './operations.ts';
