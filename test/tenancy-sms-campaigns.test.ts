import { isolationSuite } from './support/tenancy.ts';
import { smsCampaignChecks } from './support/tenancy-sms-campaigns.ts';

isolationSuite('sms campaigns', smsCampaignChecks);
