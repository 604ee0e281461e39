// The OCR module (reading shipping labels, matching them with the business's own things, orders drafted from them): what the composition root may use.
export { LABEL_IMAGE_EXPIRY_TOPIC } from './images.ts';
export { ocrOperations } from './operations.ts';
export { LabelReader } from './reading/index.ts';
export { OcrService } from './service.ts';
