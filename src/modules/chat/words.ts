import type { Language } from '../../platform/i18n/languages.ts';
import type { SystemEvent } from './tables.ts';

/** The messages the service writes into a conversation, in each language it speaks. */
const SYSTEM_MESSAGES: Record<Language, Record<SystemEvent, (name: string) => string>> = {
  en: {
    closed: (name) => `${name} closed the conversation.`,
    reopened: (name) => `${name} reopened the conversation.`,
  },
  fr: {
    closed: (name) => `${name} a fermé la discussion.`,
    reopened: (name) => `${name} a rouvert la discussion.`,
  },
  de: {
    closed: (name) => `${name} hat den Chat geschlossen.`,
    reopened: (name) => `${name} hat den Chat wieder geöffnet.`,
  },
  es: {
    closed: (name) => `${name} cerró la conversación.`,
    reopened: (name) => `${name} reabrió la conversación.`,
  },
  'zh-Hans': {
    closed: (name) => `${name} 关闭了对话。`,
    reopened: (name) => `${name} 重新打开了对话。`,
  },
  'zh-Hant': {
    closed: (name) => `${name} 關閉了對話。`,
    reopened: (name) => `${name} 重新開啟了對話。`,
  },
};

/** A system message as the reader's language words it; `name` is who caused it. */
export function systemMessage(event: SystemEvent, name: string, lang: Language): string {
  return SYSTEM_MESSAGES[lang][event](name);
}
