/** Descriptions of the endpoint families (OpenAPI tags), in the interface's words. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  System: 'Health of the service and its database.',
  User: 'Accounts: sign-in with email and password, bearer tokens, the signed-in account.',
};
