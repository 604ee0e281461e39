export {
  LABEL_MEDIA_TYPES,
  type LabelMediaType,
  labelMediaTypeOfFile,
  MAX_LABEL_BYTES,
} from './limits.ts';
export { checkLabel, LabelReader, serviceLabelReader } from './reader.ts';
export type * from './types.ts';
