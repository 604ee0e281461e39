import type { PageData } from './page-data.ts';
import type { Translate } from './texts.ts';
import { type ComponentChildren, html } from './ui.ts';

/** The words every app's frame uses. */
export type FrameTextKey = 'signedInAs' | 'signOut' | 'language';

/** An app's header: its title, who is signed in with the sign-out form, and what the app adds. */
export function AppHeader<K extends string>(props: {
  data: PageData<K>;
  t: Translate<K | FrameTextKey>;
  title: string;
  children?: ComponentChildren;
}) {
  const { data, t } = props;
  return html`<header class="bar">
    <h1>${props.title}</h1>
    ${props.children}
    <form method="post" action=${`${data.base}/sign-out${languageQuery(data)}`} class="who">
      <input type="hidden" name="csrf" value=${data.csrf} />
      <p>${t('signedInAs')} <strong>${data.user.name}</strong> (${data.user.email})</p>
      <button type="submit" class="secondary">${t('signOut')}</button>
    </form>
  </header>`;
}

/** The language the reader chose with `?lang=`, kept by the forms the app posts. */
function languageQuery<K extends string>(data: PageData<K>): string {
  return new URLSearchParams(location.search).has('lang') ? `?lang=${data.lang}` : '';
}
