// The tracking module (the OTEP tracking timeline, its projections and providers): what other modules, the doors and the composition root may use.
export type { Phase } from './codebook.ts';
export { INCIDENT_REASONS, OTEP_VERSION } from './codebook.ts';
export { codebookHtml, codebookJson, codebookMarkdown, guideHtml, guideMarkdown } from './guide.ts';
export type { UiKey } from './labels.ts';
export { phaseLabel, uiText } from './labels.ts';
export { trackingOperations } from './operations.ts';
export { FORMAT_NAMES } from './projections/registry.ts';
export type { PublicTracking } from './public-tracking.ts';
export {
  GET_PUBLIC_TRACKING,
  JOURNEY_STEPS,
  journeyStep,
  publicTrackingOperations,
} from './public-tracking.ts';
export { timelineJsonSchema } from './schema.ts';
export { TrackingService } from './service.ts';
export { TRACKING_HISTORY } from './tables.ts';
export { timelineSchema, trackingEventSchema } from './timeline-schema.ts';
export { offsetOf } from './times.ts';
