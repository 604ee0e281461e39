// The accounts module (businesses, accounts, tokens, module switches and driver sign-ups): what other modules, the doors and the composition root may use.
export { accountsOperations, localDateTime } from './operations.ts';
export { PROFILES, SCOPES } from './profiles.ts';
export { driverRegistrationOperations } from './registration-operations.ts';
export { DriverRegistrations } from './registrations.ts';
export type { BusinessModule, FamilySetupCheck, OptInFamily } from './service.ts';
export { AccountsService, OPT_IN_FAMILIES } from './service.ts';
export { familySwitchOperations, moduleSwitchOperations } from './switches.ts';
