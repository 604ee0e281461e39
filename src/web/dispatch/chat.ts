import { type Api, answer, type Schemas } from '../shared/api.ts';
import { LiveTopics, socketAddress } from '../shared/mqtt.ts';
import { timeOfDay } from '../shared/texts.ts';
import { html, useEffect, useRef, useState } from '../shared/ui.ts';
import type { BoardRoute } from './board.ts';
import type { ConsoleContext } from './context.ts';

type Message = Schemas['OrderChatMessage'];
type Thread = Awaited<ReturnType<typeof readThread>>;

/** Where the page hears pushes: the broker's WebSocket under the page's path, and its topics' prefix. */
interface Live {
  path: string;
  topicPrefix: string;
}

const MESSAGES = 50;

function readThread(api: Api, orderId: number) {
  return answer(
    api.GET('/v1/order-chats/{order_id}', {
      params: { path: { order_id: orderId }, query: { per_page: MESSAGES } },
    }),
  );
}

let broker: LiveTopics | null = null;
let business: Promise<number | null> | null = null;

/** The page's one MQTT connection, opened at the first conversation shown (none without the embedded broker). */
function liveTopics(live: Live | null | undefined): LiveTopics | null {
  if (!live) return null;
  broker ??= new LiveTopics(socketAddress(live.path));
  return broker;
}

/** The person's business, which names the conversation's topic (`get_me`). */
function businessOf(api: Api): Promise<number | null> {
  business ??= answer(api.GET('/v1/user/me')).then(
    (me) => me.business?.id ?? null,
    () => null,
  );
  return business;
}

/** The order whose chat "Message the driver" opened: its field takes the focus once shown. */
let focusWanted: number | null = null;

/**
 * The order's conversation with its driver (and its customer where the business allows it), read
 * and written through the order chat operations; new messages arrive live over MQTT. Shown only to
 * whoever the API lets read it: the family off, or no part in it, shows nothing.
 */
export function OrderChat(props: { context: ConsoleContext; orderId: number | null }) {
  const { context, orderId } = props;
  const { api, t } = context;
  const [thread, setThread] = useState<Thread | null>(null);
  const [draft, setDraft] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [live, setLive] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const pushes = (context.data as { live?: Live | null }).live;

  useEffect(() => {
    setThread(null);
    setFailure(null);
    setLive(false);
    if (orderId === null) return;
    let current = true;
    const read = () =>
      readThread(api, orderId)
        .then((found) => {
          if (!current) return;
          setThread(found);
          if (found.unread > 0) markRead(api, orderId);
        })
        .catch(() => current && setThread(null));
    void read();
    const topics = liveTopics(pushes);
    const stops: Array<() => void> = [];
    if (topics) {
      // What was pushed while the connection was down is not kept: the API has it.
      stops.push(topics.onReconnect(() => void read()));
      void businessOf(api).then((id) => {
        if (!current || id === null) return;
        stops.push(
          topics.listen(
            `${pushes!.topicPrefix}/order-chat/${id}/${orderId}`,
            (push) => {
              const message = (push as { message?: Message }).message;
              if (!current || !message || message.order_id !== orderId) return;
              setThread((held) => (held ? withMessage(held, message) : held));
              markRead(api, orderId);
            },
            () => current && setLive(true),
          ),
        );
      });
    }
    return () => {
      current = false;
      for (const stop of stops) stop();
    };
  }, [orderId]);

  useEffect(() => {
    if (thread && orderId !== null && focusWanted === orderId) {
      focusWanted = null;
      field.current?.focus();
    }
  }, [thread, orderId]);

  if (orderId === null || !thread) return '';
  const send = async (event: Event) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || sending) return;
    setSending(true);
    try {
      const posted = await answer(
        api.POST('/v1/order-chats/{order_id}/messages', {
          params: { path: { order_id: orderId } },
          body: { text },
        }),
      );
      setThread((held) => (held ? withMessage(held, posted.message) : held));
      setDraft('');
      setFailure(null);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setSending(false);
    }
  };
  const messages = [...thread.messages].reverse();
  const latest = messages.at(-1);
  // Its author has read it by posting it: "read by" names the others.
  const readers = thread.reads.filter(
    (read) => latest && read.user_id !== latest.author.id && read.last_read_message_id >= latest.id,
  );
  return html`<div class="chat" data-chat=${orderId} data-live=${live ? 'yes' : 'no'}>
    <h3 id="chat-heading">${t('chatHeading')}</h3>
    <ol class="chat-log" aria-labelledby="chat-heading" aria-live="polite">
      ${messages.length === 0 ? html`<li class="meta">${t('chatEmpty')}</li>` : ''}
      ${messages.map((message) => html`<${ChatLine} key=${message.id} context=${context} message=${message} />`)}
    </ol>
    ${readers.length > 0 ? html`<p class="meta">${t('chatReadBy', { names: readers.map((read) => read.name).join(', ') })}</p>` : ''}
    ${
      thread.status === 'closed'
        ? html`<p class="meta">${t('chatClosed')}</p>`
        : html`<form class="stack" onSubmit=${send}>
            <label for="chat-text">${t('chatField')}</label>
            <textarea
              id="chat-text"
              ref=${field}
              rows="2"
              maxlength="2000"
              required
              value=${draft}
              onInput=${(event: Event) => setDraft((event.target as HTMLTextAreaElement).value)}
            ></textarea>
            <button type="submit" disabled=${sending}>${t('chatSend')}</button>
            ${failure ? html`<p class="meta" role="alert">${failure}</p>` : ''}
          </form>`
    }
  </div>`;
}

function ChatLine(props: { context: ConsoleContext; message: Message }) {
  const { context, message } = props;
  const { t } = context;
  const when = timeOfDay(message.created_at, context.data.lang);
  if (message.system_event) {
    return html`<li class="meta" data-message=${message.id}>
      ${t(`chatSystem_${message.system_event}`, { name: message.author.name })} · ${when}
    </li>`;
  }
  return html`<li data-message=${message.id} class=${`message ${message.author.role}`}>
    <p class="who">${message.author.name} <span class="meta">(${t(`chatRole_${message.author.role}`)}) · ${when}</span></p>
    <p>${message.text}</p>
    ${message.attachments.map(
      (attachment) =>
        html`<a href=${attachment.url} rel="noopener noreferrer" target="_blank">${attachment.name ?? attachment.url}</a>`,
    )}
  </li>`;
}

/** The thread with a message, once (a push may arrive twice, or after the post's own answer). */
function withMessage(thread: Thread, message: Message): Thread {
  if (thread.messages.some((held) => held.id === message.id)) return thread;
  return { ...thread, messages: [message, ...thread.messages], total: thread.total + 1 };
}

function markRead(api: Api, orderId: number): void {
  void answer(
    api.POST('/v1/order-chats/{order_id}/read', { params: { path: { order_id: orderId } }, body: {} }),
  ).catch(() => undefined);
}

/**
 * The order a route's driver is dealing with now: the stop arrived at, else the next pending one.
 * Chat is per order (the API has no conversation per route or driver), so "Message the driver"
 * opens that order's conversation, which the route's driver takes part in.
 */
export function currentOrder(route: BoardRoute): { orderId: number; ref: string } | null {
  const stop =
    route.stops.find((candidate) => candidate.state === 'arrived') ??
    route.stops.find((candidate) => candidate.state === 'pending');
  return stop ? { orderId: stop.order_id, ref: stop.order_ref } : null;
}

/** A route's "Message the driver": opens the current order's chat in the order panel, its field focused. */
export function MessageDriver(props: { context: ConsoleContext; route: BoardRoute }) {
  const { context, route } = props;
  const order = currentOrder(route);
  if (!order) return '';
  return html`<button
    type="button"
    class="small secondary"
    data-message-driver=${route.id}
    aria-label=${context.t('messageDriverOf', { number: context.routeNumber(route.id), order: order.ref })}
    onClick=${() => {
      focusWanted = order.orderId;
      context.openOrder(order.orderId);
    }}
  >
    ${context.t('messageDriver')}
  </button>`;
}
