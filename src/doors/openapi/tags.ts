/** Descriptions of the endpoint families (OpenAPI tags), in the interface's words. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Dispatch: 'Depots, routes and route building from the planning pool.',
  Driver: 'Drivers, their vehicles, capacity, working hours and skills, and their routes.',
  Orders:
    'Orders of every family (local delivery, label, shipping, LTL, storage, moving, device orders), their packages and lifecycle.',
  System: 'Health of the service and its database.',
  Tracking: 'Package tracking and the audit trail of orders.',
  User: 'Accounts: sign-in with email and password, bearer tokens, the signed-in account.',
};
