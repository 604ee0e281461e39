// The chat module (order chat and its live push over MQTT): what other modules, the doors and the composition root may use.
export { chatOperations } from './operations.ts';
export { ChatPush, ChatTopics } from './push.ts';
export { CHAT_PUSH_TOPIC, ChatService, PUSH_TYPE } from './service.ts';
