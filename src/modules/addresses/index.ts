// The addresses module (address books, searched with typos forgiven): what the composition root may use.
export { addressesOperations } from './operations.ts';
export { AddressesService } from './service.ts';
