// The riders module (instant riders: drivers granted instant delivery, their online state and position, and the instant orders offered to them): what the composition root may use.

export { OFFER_EXPIRY_TOPIC } from './instant-dispatch.ts';
export { ridersOperations } from './operations.ts';
export { RidersService } from './service.ts';
