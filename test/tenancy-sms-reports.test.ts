import { isolationSuite } from './support/tenancy.ts';
import { smsReportChecks } from './support/tenancy-sms-reports.ts';

isolationSuite('SMS campaign reports and offer codes', smsReportChecks);
