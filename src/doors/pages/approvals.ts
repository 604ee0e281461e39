import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageSessions } from '../../modules/approvals/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { type AppError, isAppError } from '../../platform/errors.ts';
import { html, type SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { TEXTS, type TextKey } from './approvals-texts.ts';
import { languageLinks, sendPage } from './layout.ts';
import {
  acceptForms,
  PageSignIn,
  type PageView,
  pageCalls,
  pageView,
  signedInBar,
  signInForm,
} from './sign-in.ts';

/**
 * The approval queue for people: `/mcp-approvals` signs a person in (./sign-in.ts: a session of
 * the page's own, never a bearer token, and no bearer token put in the cookie opens the page). It
 * lists the business's
 * pending agent write proposals in words a dispatcher reads, and approves or rejects them through
 * the same operations as every door, as the person signed in. No script: plain forms, each
 * carrying a CSRF token tied to the session.
 */
const BASE = '/mcp-approvals';

type Fields = Record<string, string | undefined>;

interface Proposal {
  id: number;
  tool: string;
  title: string;
  arguments: Record<string, unknown>;
  orders: Array<{ id: number; order_ref: string; customer: string | null; recipient: string | null }>;
  reason: string;
  preview: Record<string, unknown>;
  proposed_by: { name: string };
  proposed_at: string;
  expires_at: string;
  origin: { conversation_id: number; turn_id: number; request: string; after_tool_output: boolean } | null;
}

interface Reviewer {
  user: { name: string; email: string };
  business: { time_zone: string } | null;
}

export function registerApprovalsPage(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  sessions: PageSessions,
  settings: { secureCookies: boolean },
): void {
  const calls = pageCalls(catalog, executor);
  const me = calls.operation('get_me');
  const pending = calls.operation('list_pending_approvals');
  const approve = calls.operation('approve_pending_write');
  const reject = calls.operation('reject_pending_write');
  const run = calls.run;
  const signIn = new PageSignIn(BASE, 'tms_approvals', sessions, settings.secureCookies, calls);

  /** The queue, or the sign-in form when the session is missing, over, or its account may not review. */
  const show = async (request: FastifyRequest, reply: FastifyReply, notice?: Notice) => {
    const view = viewOf(request);
    const session = await signIn.sessionOf(request);
    if (session?.person) {
      try {
        const [who, queue] = await Promise.all([
          run(request, view.lang, me, {}, session.person) as Promise<Reviewer>,
          run(request, view.lang, pending, { page: 1, per_page: 50 }, session.person) as Promise<{
            proposals: Proposal[];
          }>,
        ]);
        const timeZone = who.business?.time_zone ?? 'UTC';
        return page(
          reply,
          view,
          notice?.status ?? 200,
          queueBody(view, who.user, timeZone, queue.proposals, signIn.csrfOf(session.id), notice),
        );
      } catch (error) {
        if (!isAppError(error)) throw error;
        // An account that may not review (a customer, a driver) is signed out, told why.
        await signIn.signOut(request, reply, view.lang, session);
        if (error.code !== 'UNAUTHENTICATED') notice = notice ?? failed(error, view);
      }
    } else if (session) {
      signIn.forget(reply);
    }
    const csrf = signIn.issueSignInCsrf(reply);
    return page(reply, view, notice?.status ?? 200, signInBody(view, csrf, notice));
  };

  app.get(BASE, (request, reply) => show(request, reply));
  signIn.registerForms(app, {
    viewOf,
    show: (request, reply, refusal) =>
      show(request, reply, refusal && { status: refusal.status, tone: 'alert', text: refusal.message }),
  });

  app.register(async (scope) => {
    acceptForms(scope);

    scope.post<{ Params: { id: string; decision: string } }>(
      `${BASE}/:id/:decision`,
      async (request, reply) => {
        const view = viewOf(request);
        const session = await signIn.formSession(request);
        const decision = request.params.decision;
        const id = Number(request.params.id);
        if (
          !session?.person ||
          !Number.isSafeInteger(id) ||
          (decision !== 'approve' && decision !== 'reject')
        ) {
          return show(request, reply, refusedForm(view));
        }
        const fields = (request.body ?? {}) as Fields;
        try {
          if (decision === 'approve') {
            await run(request, view.lang, approve, { proposal_id: id }, session.person);
          } else {
            const input = { proposal_id: id, reason: fields.reason ?? '' };
            await run(request, view.lang, reject, input, session.person);
          }
          const done = decision === 'approve' ? 'approved' : 'rejected';
          return reply.redirect(view.url(BASE, { done, id: String(id) }), 303);
        } catch (error) {
          if (!isAppError(error)) throw error;
          return show(request, reply, failed(error, view));
        }
      },
    );
  });
}

/** What to tell the person above the page: a decision taken, or a refusal. */
interface Notice {
  status: number;
  tone: 'done' | 'alert';
  text: string;
}

function failed(error: AppError, view: View): Notice {
  return { status: error.status, tone: 'alert', text: errorBody(error, view.lang, '').message };
}

function refusedForm(view: View): Notice {
  return { status: 403, tone: 'alert', text: view.text('formExpired') };
}

interface View extends PageView<TextKey> {
  /** The done/id of a decision just taken, from the redirect. */
  done: { decision: string; id: string } | undefined;
}

function viewOf(request: FastifyRequest): View {
  const query = request.query as Record<string, unknown>;
  const done =
    (query.done === 'approved' || query.done === 'rejected') && typeof query.id === 'string'
      ? { decision: query.done, id: query.id }
      : undefined;
  return { ...pageView(request, TEXTS), done };
}

function page(reply: FastifyReply, view: View, status: number, body: SafeHtml) {
  reply.header('cache-control', 'no-store');
  const footer = languageLinks(view.lang, view.text('language'), (lang) => `${BASE}?lang=${lang}`);
  return sendPage(reply, { status, lang: view.lang, title: view.text('title'), body, footer, css: CSS });
}

function noticeOf(view: View, notice: Notice | undefined): SafeHtml | '' {
  const shown =
    notice ??
    (view.done
      ? {
          tone: 'done' as const,
          text: view
            .text(view.done.decision === 'approved' ? 'approvedNotice' : 'rejectedNotice')
            .replace('{id}', view.done.id),
        }
      : undefined);
  if (!shown) return '';
  return html`<p class="notice ${shown.tone}" role="${shown.tone === 'alert' ? 'alert' : 'status'}">${shown.text}</p>`;
}

function signInBody(view: View, csrf: string, notice: Notice | undefined): SafeHtml {
  return html`<h1>${view.text('title')}</h1>
${noticeOf(view, notice)}
${signInForm(view.text, view.text('signInHint'), view.url(`${BASE}/sign-in`), csrf)}`;
}

function queueBody(
  view: View,
  who: { name: string; email: string },
  timeZone: string,
  proposals: Proposal[],
  csrf: string,
  notice: Notice | undefined,
): SafeHtml {
  const items = proposals.map((proposal) => proposalCard(view, timeZone, proposal, csrf));
  return html`<h1>${view.text('title')}</h1>
${signedInBar(view.text, who, view.url(`${BASE}/sign-out`), csrf)}
${noticeOf(view, notice)}
<h2 class="count">${view.text('pending')} (${proposals.length})</h2>
${proposals.length === 0 ? html`<p class="card">${view.text('none')}</p>` : items}`;
}

/** Where a console agent's proposal came from: its conversation, what the person asked, and whether it followed tool output. */
function originOf(view: View, proposal: Proposal): SafeHtml | string {
  const origin = proposal.origin;
  if (!origin) return '';
  const made = view.text('agentOrigin').replace('{conversation}', String(origin.conversation_id));
  const after = origin.after_tool_output ? html`, <strong>${view.text('afterToolOutput')}</strong>` : '';
  return html`<dt>${view.text('origin')}</dt><dd class="origin">${made}${after}</dd>
<dt>${view.text('personAsked')}</dt><dd><q>${origin.request}</q></dd>
`;
}

/**
 * One proposal in a dispatcher's words: what the tool does, each argument under its label (the
 * orders it names by reference and customer), who asked, why and when, in the business's time.
 * The tool's name and the raw preview stay in the collapsed details, for whoever wants them.
 */
function proposalCard(view: View, timeZone: string, proposal: Proposal, csrf: string): SafeHtml {
  const heading = `proposal-${proposal.id}`;
  const refused = proposal.preview.result === false;
  const shown = { view, timeZone, orders: new Map(proposal.orders.map((order) => [order.id, order])) };
  return html`<section class="card" aria-labelledby="${heading}">
<h3 id="${heading}">${proposal.title}</h3>
<p class="meta">${view.text('proposal').replace('{id}', String(proposal.id))}</p>
<h4>${view.text('whatChanges')}</h4>
${argumentList(shown, proposal.arguments)}
<dl class="about">
<dt>${view.text('reason')}</dt><dd>${proposal.reason}</dd>
<dt>${view.text('proposedBy')}</dt><dd>${proposal.proposed_by.name}</dd>
${originOf(view, proposal)}<dt>${view.text('proposedAt')}</dt><dd>${when(proposal.proposed_at, shown)}</dd>
<dt>${view.text('expiresAt')}</dt><dd>${when(proposal.expires_at, shown)}</dd>
</dl>
<details${refused ? ' open' : ''}>
<summary>${view.text(refused ? 'previewRefused' : 'preview')}</summary>
<p class="meta">${view.text('tool')}: <code>${proposal.tool}</code></p>
<pre>${JSON.stringify(proposal.preview, null, 2)}</pre>
</details>
<div class="decide">
<form method="post" action="${view.url(`${BASE}/${proposal.id}/approve`)}">
<input type="hidden" name="csrf" value="${csrf}">
<button type="submit">${view.text('approve')}</button>
</form>
<form method="post" action="${view.url(`${BASE}/${proposal.id}/reject`)}" class="stack">
<input type="hidden" name="csrf" value="${csrf}">
<label for="reason-${proposal.id}">${view.text('rejectReason')}</label>
<textarea id="reason-${proposal.id}" name="reason" required maxlength="500" rows="2"></textarea>
<button type="submit" class="secondary">${view.text('reject')}</button>
</form>
</div>
</section>
`;
}

/** What a card shows values with: the page's words, the business's time zone, the orders named. */
interface Shown {
  view: View;
  timeZone: string;
  orders: Map<number, Proposal['orders'][number]>;
}

/** Each argument under its label; objects and lists as nested labelled lists, never raw JSON. */
function argumentList(shown: Shown, args: Record<string, unknown>): SafeHtml {
  const rows = Object.entries(args).map(
    ([name, value]) => html`<dt>${labelOf(name)}</dt><dd>${argumentValue(shown, name, value)}</dd>`,
  );
  return rows.length === 0 ? html`<p class="meta">—</p>` : html`<dl>${rows}</dl>`;
}

function argumentValue(shown: Shown, name: string, value: unknown): SafeHtml | string {
  if (name === 'order_id' && typeof value === 'number') return orderOf(shown, value);
  if (name === 'order_ids' && Array.isArray(value)) {
    return html`<ul>${value.map((id) => html`<li>${typeof id === 'number' ? orderOf(shown, id) : String(id)}</li>`)}</ul>`;
  }
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return shown.view.text(value ? 'yes' : 'no');
  if (typeof value === 'string') return INSTANT.test(value) ? when(value, shown) : value;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) {
    return value.every((item) => item === null || typeof item !== 'object')
      ? value.map((item) => String(item)).join(', ')
      : html`<ol>${value.map((item) => html`<li>${argumentValue(shown, '', item)}</li>`)}</ol>`;
  }
  return argumentList(shown, value as Record<string, unknown>);
}

/** An order by its reference, with its customer and recipient when it has them. */
function orderOf(shown: Shown, id: number): SafeHtml {
  const order = shown.orders.get(id);
  if (!order) return html`#${id} <span class="meta">(${shown.view.text('unknownOrder')})</span>`;
  const who = [
    order.customer ? `${shown.view.text('customer')}: ${order.customer}` : '',
    order.recipient ? `${shown.view.text('recipient')}: ${order.recipient}` : '',
  ].filter(Boolean);
  return html`<strong>${order.order_ref}</strong>${who.length ? html`<br><span class="meta">${who.join(' · ')}</span>` : ''}`;
}

/** An argument's name in words: `delivery_instruction` is "Delivery instruction", `order_id` "Order", `line1` "Line 1". */
function labelOf(name: string): string {
  const words = name
    .replace(/_ids$/, 's')
    .replace(/_id$/, '')
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replaceAll('_', ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

/** An instant with its offset (what the service answers), told apart from a calendar date. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A moment in the business's local time, saying which zone. */
function when(iso: string, shown: { view: View; timeZone: string }): SafeHtml {
  const text = new Intl.DateTimeFormat(shown.view.lang, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: shown.timeZone,
    timeZoneName: 'short',
  }).format(new Date(iso));
  return html`<time datetime="${iso}">${text}</time>`;
}

const CSS = `
h3{font-size:1rem;margin:0}
h4{font-size:.875rem;margin:.75rem 0 .25rem;color:#4b5259}
code{font-family:ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
pre{margin:0;padding:.5rem;background:#f3f4f6;border-radius:8px;overflow-x:auto;font-size:.8125rem;white-space:pre-wrap;overflow-wrap:anywhere}
dd dl{grid-template-columns:minmax(0,auto) minmax(0,1fr);font-size:.9375rem}
dd ul,dd ol{margin:0;padding-left:1.25rem}
.about{margin-top:.75rem}
details{margin:.75rem 0}
summary{cursor:pointer;font-weight:600;color:#1a56a8}
.stack{flex-direction:column;flex-wrap:nowrap;align-items:stretch}
.stack label,.stack input,.stack textarea{flex:0 0 auto}
textarea{min-width:0;font:inherit;padding:.5rem .75rem;border:1px solid #767d85;border-radius:8px;resize:vertical}
textarea:focus-visible{outline:3px solid #1b1e23;outline-offset:2px}
.decide{display:grid;grid-template-columns:minmax(0,1fr);gap:.75rem;margin-top:.75rem}
.decide>form{min-width:0}
@media (min-width:40rem){.decide{grid-template-columns:auto minmax(0,1fr);align-items:start}}
button.secondary{background:#fff;color:#1a56a8;border:2px solid #1a56a8}
.who{align-items:center;justify-content:space-between;margin:0 0 1rem}
.who p{margin:0;min-width:0;overflow-wrap:anywhere}
.notice{padding:.75rem 1rem;border-radius:8px;margin:0 0 1rem;font-weight:600}
.notice.done{background:#e3f3e8;color:#14602f}
.notice.alert{background:#fbe4e2;color:#8a1c15}
.count{margin:1rem 0 .5rem}
`;
