import { isolationSuite } from './support/tenancy.ts';
import { smsSubscriberChecks } from './support/tenancy-sms-subscribers.ts';

isolationSuite('SMS subscribers', smsSubscriberChecks);
