// The operations AI agent (conversations with a model over the caller's read tools, writes proposed for approval, the daily turn cap): what the doors and the composition root may use.
export { agentOperations } from './operations.ts';
export { type ModelProvider, providerOf } from './provider.ts';
export { type AgentProposals, AgentService } from './service.ts';
export type { AgentTools } from './tool-loop.ts';
