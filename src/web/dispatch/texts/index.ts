import { LANGUAGES, type Language } from '../../shared/texts.ts';
import { AGENT_WORDS } from './agent.ts';
import { BOARD_WORDS } from './board.ts';
import { FRAME_WORDS } from './frame.ts';
import { ORDER_WORDS } from './orders.ts';
import { PLAN_WORDS } from './plan.ts';
import { TALK_WORDS } from './talk.ts';

/**
 * Every word of the dispatch console, by part, in the six languages. The service sends the app
 * the reader's language only; its sign-in page takes the title and hint from here too.
 */
const PARTS = [BOARD_WORDS, PLAN_WORDS, AGENT_WORDS, FRAME_WORDS, TALK_WORDS, ORDER_WORDS] as const;

type Part = (typeof PARTS)[number];
export type ConsoleKey = Part extends infer P
  ? P extends Record<'en', infer W>
    ? keyof W & string
    : never
  : never;

export const CONSOLE_WORDS = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, Object.assign({}, ...PARTS.map((part) => part[lang]))]),
) as Record<Language, Record<ConsoleKey, string>>;
