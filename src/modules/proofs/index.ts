// The proofs module (proof of delivery images, their storage and signed links): what other modules, the doors and the composition root may use.
export type { ProofLinkSigner, SignedLink } from './links.ts';
export { PROOF_LINK_LIFETIME_SECONDS } from './links.ts';
export { proofsOperations } from './operations.ts';
export { ProofsService } from './service.ts';
