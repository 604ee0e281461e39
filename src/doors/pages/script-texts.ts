import type { Language } from '../../platform/i18n/index.ts';
import { AGENT_PANEL_TEXTS } from './agent-panel-texts.ts';
import { DISPATCH_TEXTS } from './dispatch-texts.ts';

/**
 * The words of each page script (browser/{name}.js) that writes words, by script. A page running
 * one sends it all of them in the reader's language, never a pick a script can outgrow; the test
 * beside this file checks every word a script looks up against each language.
 */
export const SCRIPT_TEXTS = {
  console: DISPATCH_TEXTS,
  agent: AGENT_PANEL_TEXTS,
} satisfies Record<string, Record<Language, Record<string, string>>>;
