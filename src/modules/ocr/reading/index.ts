export {
  LABEL_LIMITS,
  LABEL_MEDIA_TYPES,
  type LabelMediaType,
  labelMediaTypeOfFile,
  MAX_LABEL_BYTES,
} from './limits.ts';
export { LabelReader, labelTypeOf } from './reader.ts';
export type * from './types.ts';
