// The dispatch console's app (served by src/doors/pages/dispatch.ts): the day's live board on a
// map and in lists, and the plan's edits, all through the public API as the person signed in.
import { apiClient } from '../shared/api.ts';
import { pageData } from '../shared/page-data.ts';
import { translator } from '../shared/texts.ts';
import { html, render } from '../shared/ui.ts';
import { Console } from './console.ts';
import type { ConsoleKey } from './texts/index.ts';

const data = pageData<ConsoleKey>();
const api = apiClient(data.base, data.csrf, data.lang);
const root = document.getElementById('app');
if (!root) throw new Error('The page has no #app element');
render(html`<${Console} data=${data} api=${api} t=${translator(data.texts)} />`, root);
