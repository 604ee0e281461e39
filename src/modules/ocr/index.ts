export { completeTrackingNumber } from './numbers/index.ts';
export * from './reading/index.ts';
export { readLabelPixels } from './reading/read.ts';
