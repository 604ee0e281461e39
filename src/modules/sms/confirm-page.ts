// The small page a confirmation link opens: the subscription's state, and while it is pending a
// button that confirms it (opening the link alone changes nothing).

import { html } from '../../platform/html.ts';
import type { Language } from '../../platform/i18n/index.ts';
import type { SubscriberStatus } from './tables.ts';

interface Words {
  title: string;
  pending: string;
  button: string;
  confirmed: string;
  unsubscribed: string;
}

const WORDS: Record<Language, Words> = {
  en: {
    title: 'Text messages',
    pending: 'Confirm that you want to receive our text messages.',
    button: 'Confirm',
    confirmed: 'Thank you: your subscription is confirmed. Reply STOP to any message to stop.',
    unsubscribed: 'This number is unsubscribed. Text START to subscribe again.',
  },
  fr: {
    title: 'SMS',
    pending: 'Confirmez que vous souhaitez recevoir nos SMS.',
    button: 'Confirmer',
    confirmed: 'Merci : votre inscription est confirmée. Répondez STOP à tout message pour arrêter.',
    unsubscribed: 'Ce numéro est désinscrit. Envoyez START pour vous réinscrire.',
  },
  de: {
    title: 'SMS',
    pending: 'Bestätigen Sie, dass Sie unsere SMS erhalten möchten.',
    button: 'Bestätigen',
    confirmed:
      'Danke: Ihre Anmeldung ist bestätigt. Antworten Sie STOPP auf eine Nachricht, um sich abzumelden.',
    unsubscribed: 'Diese Nummer ist abgemeldet. Senden Sie START, um sich wieder anzumelden.',
  },
  es: {
    title: 'SMS',
    pending: 'Confirme que desea recibir nuestros SMS.',
    button: 'Confirmar',
    confirmed:
      'Gracias: su suscripción está confirmada. Responda BAJA a cualquier mensaje para darse de baja.',
    unsubscribed: 'Este número está dado de baja. Envíe START para volver a suscribirse.',
  },
  'zh-Hans': {
    title: '短信',
    pending: '请确认您希望接收我们的短信。',
    button: '确认',
    confirmed: '谢谢：您的订阅已确认。回复退订即可取消。',
    unsubscribed: '此号码已退订。发送START可重新订阅。',
  },
  'zh-Hant': {
    title: '簡訊',
    pending: '請確認您希望接收我們的簡訊。',
    button: '確認',
    confirmed: '謝謝：您的訂閱已確認。回覆退訂即可取消。',
    unsubscribed: '此號碼已退訂。傳送START可重新訂閱。',
  },
};

export function confirmPage(
  status: SubscriberStatus,
  link: { subscriber_id: number; signature: string },
  lang: Language,
): string {
  const words = WORDS[lang] ?? WORDS.en;
  const action = `/api/v1/sms/confirm/${link.subscriber_id}?signature=${encodeURIComponent(link.signature)}`;
  const body =
    status === 'pending'
      ? html`<p>${words.pending}</p><form method="post" action="${action}"><button type="submit">${words.button}</button></form>`
      : html`<p>${status === 'confirmed' ? words.confirmed : words.unsubscribed}</p>`;
  return html`<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${words.title}</title></head><body>${body}</body></html>`.toString();
}
