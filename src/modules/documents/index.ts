// The documents module (signed PDF documents): what other modules, the doors and the composition root may use.
export { documentsOperations } from './operations.ts';
export { DocumentsService } from './service.ts';
