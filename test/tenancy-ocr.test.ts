import { isolationSuite } from './support/tenancy.ts';
import { ocrChecks } from './support/tenancy-ocr.ts';

isolationSuite('label reading', ocrChecks);
