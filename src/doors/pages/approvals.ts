import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { type AppError, isAppError } from '../../platform/errors.ts';
import { html, type SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { headerOf } from '../../platform/http/server.ts';
import { type Language, supportedLanguage } from '../../platform/i18n/index.ts';
import { invocationOf } from '../invocation.ts';
import { languageLinks, sendPage } from './layout.ts';

/**
 * The approval queue for people: `/mcp-approvals` signs a person in with email and password (the
 * `login` operation; the token lives in an HttpOnly, SameSite=Strict cookie on this path only),
 * lists the business's pending agent write proposals with their arguments and preview, and
 * approves or rejects them through the same operations as every door. No script: plain forms,
 * each carrying a CSRF token tied to the session.
 */
const BASE = '/mcp-approvals';
const SESSION_COOKIE = 'tms_approvals';
const CSRF_COOKIE = 'tms_approvals_csrf';

type Fields = Record<string, string | undefined>;

interface Proposal {
  id: number;
  tool: string;
  arguments: Record<string, unknown>;
  reason: string;
  preview: Record<string, unknown>;
  proposed_by: { name: string };
  proposed_at: string;
  expires_at: string;
}

export function registerApprovalsPage(
  app: FastifyInstance,
  catalog: Catalog,
  executor: Executor,
  settings: { secureCookies: boolean },
): void {
  const operation = (name: string) => {
    const found = catalog.get(name);
    if (!found) throw new Error(`The catalog has no ${name} operation`);
    return found;
  };
  const [login, logout, me, pending, approve, reject] = [
    'login',
    'logout',
    'get_me',
    'list_pending_approvals',
    'approve_pending_write',
    'reject_pending_write',
  ].map(operation);
  const run = (request: FastifyRequest, lang: Language, op: typeof login, input: unknown, bearer?: string) =>
    executor.execute(op!, input, { ...invocationOf(request, 'page', { lang, anonymous: true }), bearer });

  const cookie = (name: string, value: string, maxAgeSeconds?: number) =>
    [
      `${name}=${value}`,
      `Path=${BASE}`,
      'HttpOnly',
      'SameSite=Strict',
      ...(settings.secureCookies ? ['Secure'] : []),
      ...(maxAgeSeconds === undefined ? [] : [`Max-Age=${maxAgeSeconds}`]),
    ].join('; ');

  /** The queue, or the sign-in form when the session is missing or over. */
  const show = async (request: FastifyRequest, reply: FastifyReply, notice?: Notice) => {
    const view = viewOf(request);
    const token = cookiesOf(request)[SESSION_COOKIE];
    if (token) {
      try {
        const [who, queue] = await Promise.all([
          run(request, view.lang, me, {}, token) as Promise<{ user: { name: string; email: string } }>,
          run(request, view.lang, pending, { page: 1, per_page: 50 }, token) as Promise<{
            proposals: Proposal[];
          }>,
        ]);
        return page(
          reply,
          view,
          notice?.status ?? 200,
          queueBody(view, who.user, queue.proposals, csrfOf(token), notice),
        );
      } catch (error) {
        if (!isAppError(error) || error.code !== 'UNAUTHENTICATED') throw error;
        reply.header('set-cookie', cookie(SESSION_COOKIE, '', 0));
      }
    }
    const csrf = randomBytes(24).toString('base64url');
    reply.header('set-cookie', cookie(CSRF_COOKIE, csrf));
    return page(reply, view, notice?.status ?? 200, signInBody(view, csrf, notice));
  };

  app.get(BASE, (request, reply) => show(request, reply));

  app.register(async (scope) => {
    // Forms post urlencoded fields; nothing else is taken here.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    scope.post(`${BASE}/sign-in`, async (request, reply) => {
      const view = viewOf(request);
      const fields = (request.body ?? {}) as Fields;
      const expected = cookiesOf(request)[CSRF_COOKIE];
      if (!expected || !sameSecret(fields.csrf ?? '', expected))
        return show(request, reply, refusedForm(view));
      try {
        const signedIn = (await run(request, view.lang, login, {
          email: fields.email ?? '',
          password: fields.password ?? '',
        })) as { access_token: string };
        reply.header('set-cookie', cookie(SESSION_COOKIE, signedIn.access_token));
        return reply.redirect(view.url(BASE), 303);
      } catch (error) {
        if (!isAppError(error)) throw error;
        return show(request, reply, failed(error, view));
      }
    });

    /** A form of a signed-in person: the session's token, once its CSRF field matches it. */
    const signedIn = (request: FastifyRequest): string | undefined => {
      const token = cookiesOf(request)[SESSION_COOKIE];
      const csrf = ((request.body ?? {}) as Fields).csrf ?? '';
      return token && sameSecret(csrf, csrfOf(token)) ? token : undefined;
    };

    scope.post(`${BASE}/sign-out`, async (request, reply) => {
      const view = viewOf(request);
      const token = signedIn(request);
      if (!token) return show(request, reply, refusedForm(view));
      await run(request, view.lang, logout, {}, token).catch(() => undefined);
      reply.header('set-cookie', cookie(SESSION_COOKIE, '', 0));
      return reply.redirect(view.url(BASE), 303);
    });

    scope.post<{ Params: { id: string; decision: string } }>(
      `${BASE}/:id/:decision`,
      async (request, reply) => {
        const view = viewOf(request);
        const token = signedIn(request);
        const decision = request.params.decision;
        const id = Number(request.params.id);
        if (!token || !Number.isSafeInteger(id) || (decision !== 'approve' && decision !== 'reject')) {
          return show(request, reply, refusedForm(view));
        }
        const fields = (request.body ?? {}) as Fields;
        try {
          if (decision === 'approve') {
            await run(request, view.lang, approve, { proposal_id: id }, token);
          } else {
            await run(request, view.lang, reject, { proposal_id: id, reason: fields.reason ?? '' }, token);
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

/** The anti-forgery token of a session's forms: only a page that could read the session has it. */
function csrfOf(token: string): string {
  return createHash('sha256').update(`mcp-approvals csrf\n${token}`).digest('base64url');
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function cookiesOf(request: FastifyRequest): Record<string, string> {
  const header = headerOf(request, 'cookie') ?? '';
  return Object.fromEntries(
    header
      .split(';')
      .map((part) => part.trim().split('='))
      .filter((pair) => pair.length === 2 && pair[0])
      .map(([name, value]) => [name!, value!]),
  );
}

interface View {
  lang: Language;
  chosen: Language | undefined;
  text(key: TextKey): string;
  /** A link on this page that keeps a chosen language. */
  url(path: string, query?: Record<string, string>): string;
  /** The done/id of a decision just taken, from the redirect. */
  done: { decision: string; id: string } | undefined;
}

function viewOf(request: FastifyRequest): View {
  const query = request.query as Record<string, unknown>;
  const chosen = typeof query.lang === 'string' ? supportedLanguage(query.lang) : undefined;
  const lang = chosen ?? request.lang;
  const done =
    (query.done === 'approved' || query.done === 'rejected') && typeof query.id === 'string'
      ? { decision: query.done, id: query.id }
      : undefined;
  return {
    lang,
    chosen,
    done,
    text: (key) => TEXTS[lang][key] ?? TEXTS.en[key],
    url: (path, extra = {}) => {
      const params = new URLSearchParams({ ...(chosen ? { lang: chosen } : {}), ...extra }).toString();
      return params ? `${path}?${params}` : path;
    },
  };
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
<section class="card" aria-labelledby="sign-in-heading">
<h2 id="sign-in-heading">${view.text('signInTitle')}</h2>
<p>${view.text('signInHint')}</p>
<form method="post" action="${view.url(`${BASE}/sign-in`)}" class="stack">
<input type="hidden" name="csrf" value="${csrf}">
<label for="email">${view.text('email')}</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254">
<label for="password">${view.text('password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200">
<button type="submit">${view.text('signIn')}</button>
</form>
</section>`;
}

function queueBody(
  view: View,
  who: { name: string; email: string },
  proposals: Proposal[],
  csrf: string,
  notice: Notice | undefined,
): SafeHtml {
  const items = proposals.map((proposal) => proposalCard(view, proposal, csrf));
  return html`<h1>${view.text('title')}</h1>
<form method="post" action="${view.url(`${BASE}/sign-out`)}" class="who">
<input type="hidden" name="csrf" value="${csrf}">
<p>${view.text('signedInAs')} <strong>${who.name}</strong> (${who.email})</p>
<button type="submit" class="secondary">${view.text('signOut')}</button>
</form>
${noticeOf(view, notice)}
<h2 class="count">${view.text('pending')} (${proposals.length})</h2>
${proposals.length === 0 ? html`<p class="card">${view.text('none')}</p>` : items}`;
}

function proposalCard(view: View, proposal: Proposal, csrf: string): SafeHtml {
  const heading = `proposal-${proposal.id}`;
  const refused = proposal.preview.result === false;
  return html`<section class="card" aria-labelledby="${heading}">
<h3 id="${heading}"><code>${proposal.tool}</code> <span class="meta">#${proposal.id}</span></h3>
<dl>
<dt>${view.text('reason')}</dt><dd>${proposal.reason}</dd>
<dt>${view.text('proposedBy')}</dt><dd>${proposal.proposed_by.name}</dd>
<dt>${view.text('proposedAt')}</dt><dd>${when(proposal.proposed_at, view.lang)}</dd>
<dt>${view.text('expiresAt')}</dt><dd>${when(proposal.expires_at, view.lang)}</dd>
</dl>
<h4>${view.text('arguments')}</h4>
${argumentList(proposal.arguments)}
<details${refused ? ' open' : ''}>
<summary>${view.text(refused ? 'previewRefused' : 'preview')}</summary>
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

/** Each argument on its line: text as it is, anything else as indented JSON. */
function argumentList(args: Record<string, unknown>): SafeHtml {
  const rows = Object.entries(args).map(
    ([name, value]) =>
      html`<dt><code>${name}</code></dt><dd>${
        typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : html`<pre>${JSON.stringify(value, null, 2)}</pre>`
      }</dd>`,
  );
  return rows.length === 0 ? html`<p class="meta">—</p>` : html`<dl>${rows}</dl>`;
}

function when(iso: string, lang: Language): SafeHtml {
  const text = new Intl.DateTimeFormat(lang, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(iso));
  return html`<time datetime="${iso}">${text} UTC</time>`;
}

const CSS = `
h3{font-size:1rem;margin:0 0 .5rem}
h4{font-size:.875rem;margin:.75rem 0 .25rem;color:#4b5259}
code{font-family:ui-monospace,Menlo,Consolas,monospace}
pre{margin:0;padding:.5rem;background:#f3f4f6;border-radius:8px;overflow-x:auto;font-size:.8125rem;white-space:pre-wrap;overflow-wrap:anywhere}
details{margin:.75rem 0}
summary{cursor:pointer;font-weight:600;color:#1a56a8}
.stack{flex-direction:column;align-items:stretch}
.stack input,.stack textarea{flex:0 0 auto}
textarea{font:inherit;padding:.5rem .75rem;border:1px solid #767d85;border-radius:8px;resize:vertical}
textarea:focus-visible{outline:3px solid #1b1e23;outline-offset:2px}
.decide{display:grid;grid-template-columns:1fr;gap:.75rem;margin-top:.75rem}
@media (min-width:40rem){.decide{grid-template-columns:auto 1fr;align-items:start}}
button.secondary{background:#fff;color:#1a56a8;border:2px solid #1a56a8}
.who{align-items:center;justify-content:space-between;margin:0 0 1rem}
.who p{margin:0}
.notice{padding:.75rem 1rem;border-radius:8px;margin:0 0 1rem;font-weight:600}
.notice.done{background:#e3f3e8;color:#14602f}
.notice.alert{background:#fbe4e2;color:#8a1c15}
.count{margin:1rem 0 .5rem}
`;

type TextKey =
  | 'title'
  | 'signInTitle'
  | 'signInHint'
  | 'email'
  | 'password'
  | 'signIn'
  | 'signOut'
  | 'signedInAs'
  | 'pending'
  | 'none'
  | 'arguments'
  | 'reason'
  | 'proposedBy'
  | 'proposedAt'
  | 'expiresAt'
  | 'preview'
  | 'previewRefused'
  | 'approve'
  | 'reject'
  | 'rejectReason'
  | 'approvedNotice'
  | 'rejectedNotice'
  | 'formExpired'
  | 'language';

const TEXTS: Record<Language, Record<TextKey, string>> = {
  en: {
    title: 'Agent write approvals',
    signInTitle: 'Sign in',
    signInHint: 'Sign in with your business account to review what agents propose to change.',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    signOut: 'Sign out',
    signedInAs: 'Signed in as',
    pending: 'Waiting for a decision',
    none: 'Nothing waits for a decision.',
    arguments: 'Arguments',
    reason: 'Reason',
    proposedBy: 'Proposed by',
    proposedAt: 'Proposed',
    expiresAt: 'Expires',
    preview: 'Preview: what it would do',
    previewRefused: 'Preview: it would be refused',
    approve: 'Approve and run',
    reject: 'Reject',
    rejectReason: 'Reason for rejecting',
    approvedNotice: 'Proposal #{id} approved: it ran.',
    rejectedNotice: 'Proposal #{id} rejected.',
    formExpired: 'This form is no longer valid. Please try again.',
    language: 'Language',
  },
  fr: {
    title: 'Approbation des écritures d’agents',
    signInTitle: 'Connexion',
    signInHint:
      'Connectez-vous avec votre compte d’entreprise pour examiner ce que les agents proposent de modifier.',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    signOut: 'Se déconnecter',
    signedInAs: 'Connecté en tant que',
    pending: 'En attente de décision',
    none: 'Rien n’attend de décision.',
    arguments: 'Arguments',
    reason: 'Motif',
    proposedBy: 'Proposé par',
    proposedAt: 'Proposé le',
    expiresAt: 'Expire le',
    preview: 'Aperçu : ce que cela ferait',
    previewRefused: 'Aperçu : ce serait refusé',
    approve: 'Approuver et exécuter',
    reject: 'Rejeter',
    rejectReason: 'Motif du rejet',
    approvedNotice: 'Proposition n° {id} approuvée : elle a été exécutée.',
    rejectedNotice: 'Proposition n° {id} rejetée.',
    formExpired: 'Ce formulaire n’est plus valide. Veuillez réessayer.',
    language: 'Langue',
  },
  de: {
    title: 'Freigabe von Agenten-Änderungen',
    signInTitle: 'Anmelden',
    signInHint: 'Melden Sie sich mit Ihrem Unternehmenskonto an, um zu prüfen, was Agenten ändern möchten.',
    email: 'E-Mail',
    password: 'Passwort',
    signIn: 'Anmelden',
    signOut: 'Abmelden',
    signedInAs: 'Angemeldet als',
    pending: 'Wartet auf Entscheidung',
    none: 'Nichts wartet auf eine Entscheidung.',
    arguments: 'Argumente',
    reason: 'Begründung',
    proposedBy: 'Vorgeschlagen von',
    proposedAt: 'Vorgeschlagen am',
    expiresAt: 'Läuft ab am',
    preview: 'Vorschau: was es bewirken würde',
    previewRefused: 'Vorschau: es würde abgelehnt',
    approve: 'Genehmigen und ausführen',
    reject: 'Ablehnen',
    rejectReason: 'Grund der Ablehnung',
    approvedNotice: 'Vorschlag #{id} genehmigt: Er wurde ausgeführt.',
    rejectedNotice: 'Vorschlag #{id} abgelehnt.',
    formExpired: 'Dieses Formular ist nicht mehr gültig. Bitte versuchen Sie es erneut.',
    language: 'Sprache',
  },
  es: {
    title: 'Aprobación de escrituras de agentes',
    signInTitle: 'Iniciar sesión',
    signInHint: 'Inicie sesión con su cuenta de empresa para revisar lo que los agentes proponen cambiar.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    signOut: 'Cerrar sesión',
    signedInAs: 'Sesión iniciada como',
    pending: 'Pendiente de decisión',
    none: 'Nada espera una decisión.',
    arguments: 'Argumentos',
    reason: 'Motivo',
    proposedBy: 'Propuesto por',
    proposedAt: 'Propuesto el',
    expiresAt: 'Caduca el',
    preview: 'Vista previa: lo que haría',
    previewRefused: 'Vista previa: sería rechazado',
    approve: 'Aprobar y ejecutar',
    reject: 'Rechazar',
    rejectReason: 'Motivo del rechazo',
    approvedNotice: 'Propuesta n.º {id} aprobada: se ejecutó.',
    rejectedNotice: 'Propuesta n.º {id} rechazada.',
    formExpired: 'Este formulario ya no es válido. Inténtelo de nuevo.',
    language: 'Idioma',
  },
  'zh-Hans': {
    title: '代理写入审批',
    signInTitle: '登录',
    signInHint: '使用企业账号登录，审阅代理提议的更改。',
    email: '电子邮件',
    password: '密码',
    signIn: '登录',
    signOut: '退出登录',
    signedInAs: '当前登录：',
    pending: '等待决定',
    none: '没有等待决定的提议。',
    arguments: '参数',
    reason: '理由',
    proposedBy: '提议人',
    proposedAt: '提议时间',
    expiresAt: '过期时间',
    preview: '预览：将会执行的内容',
    previewRefused: '预览：将被拒绝',
    approve: '批准并执行',
    reject: '拒绝',
    rejectReason: '拒绝理由',
    approvedNotice: '提议 #{id} 已批准并已执行。',
    rejectedNotice: '提议 #{id} 已拒绝。',
    formExpired: '此表单已失效，请重试。',
    language: '语言',
  },
  'zh-Hant': {
    title: '代理寫入審批',
    signInTitle: '登入',
    signInHint: '使用企業帳號登入，審閱代理提議的變更。',
    email: '電子郵件',
    password: '密碼',
    signIn: '登入',
    signOut: '登出',
    signedInAs: '目前登入：',
    pending: '等待決定',
    none: '沒有等待決定的提議。',
    arguments: '參數',
    reason: '理由',
    proposedBy: '提議人',
    proposedAt: '提議時間',
    expiresAt: '到期時間',
    preview: '預覽：將會執行的內容',
    previewRefused: '預覽：將被拒絕',
    approve: '核准並執行',
    reject: '拒絕',
    rejectReason: '拒絕理由',
    approvedNotice: '提議 #{id} 已核准並已執行。',
    rejectedNotice: '提議 #{id} 已拒絕。',
    formExpired: '此表單已失效，請重試。',
    language: '語言',
  },
};
