// The payments module (order payments and account credit): what other modules, the doors and the composition root may use.
export { paymentsOperations } from './operations.ts';
export type { PaymentProvider } from './provider.ts';
export { TestPaymentProvider } from './provider.ts';
export { PaymentsService } from './service.ts';
