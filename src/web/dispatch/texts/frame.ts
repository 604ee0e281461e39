import { words } from '../../shared/texts.ts';

// The words of the console's frame: who is signed in, signing out, the language links.

export const FRAME_WORDS = words({
  en: { signedInAs: 'Signed in as', signOut: 'Sign out', language: 'Language' },
  fr: { signedInAs: 'Connecté en tant que', signOut: 'Se déconnecter', language: 'Langue' },
  de: { signedInAs: 'Angemeldet als', signOut: 'Abmelden', language: 'Sprache' },
  es: { signedInAs: 'Sesión iniciada como', signOut: 'Cerrar sesión', language: 'Idioma' },
  'zh-Hans': { signedInAs: '当前登录：', signOut: '退出登录', language: '语言' },
  'zh-Hant': { signedInAs: '目前登入：', signOut: '登出', language: '語言' },
});
