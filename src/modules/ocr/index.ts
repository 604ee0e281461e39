// The OCR module (reading shipping labels, matching them with the business's own things, orders drafted from them): what other modules, the doors and the composition root may use.

export { LABEL_IMAGE_EXPIRY_TOPIC } from './images.ts';
export { completeTrackingNumber } from './numbers/index.ts';
export { ocrOperations } from './operations.ts';
export { renderPdfPage } from './reading/image.ts';
export * from './reading/index.ts';
export { readLabelPixels } from './reading/read.ts';
export { OcrService } from './service.ts';
