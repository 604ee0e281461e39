import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type PageSessions, REVIEW_SESSION_MAX_HOURS } from '../../modules/approvals/index.ts';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Caller, Operation } from '../../platform/catalog/operation.ts';
import type { Catalog } from '../../platform/catalog/registry.ts';
import { isAppError } from '../../platform/errors.ts';
import { html, type SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import { type Language, supportedLanguage } from '../../platform/i18n/index.ts';
import { invocationOf } from '../invocation.ts';

/**
 * Signing a person in to one of the service's pages (the approval queue, the dispatch console):
 * email and password through the `login` operation, then a session of the page's own. The browser
 * holds an opaque session id in an HttpOnly, SameSite=Strict cookie on the page's path only, never
 * a bearer token; every form carries a CSRF token tied to the session (or, before sign-in, to a
 * cookie of its own).
 */

export type SignInTextKey =
  | 'signInTitle'
  | 'email'
  | 'password'
  | 'signIn'
  | 'signOut'
  | 'signedInAs'
  | 'formExpired'
  | 'language';

/** The words of signing in and out, in the six languages of the service. */
export const SIGN_IN_TEXTS: Record<Language, Record<SignInTextKey, string>> = {
  en: {
    signInTitle: 'Sign in',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    signOut: 'Sign out',
    signedInAs: 'Signed in as',
    formExpired: 'This form is no longer valid. Please try again.',
    language: 'Language',
  },
  fr: {
    signInTitle: 'Connexion',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    signOut: 'Se déconnecter',
    signedInAs: 'Connecté en tant que',
    formExpired: 'Ce formulaire n’est plus valide. Veuillez réessayer.',
    language: 'Langue',
  },
  de: {
    signInTitle: 'Anmelden',
    email: 'E-Mail',
    password: 'Passwort',
    signIn: 'Anmelden',
    signOut: 'Abmelden',
    signedInAs: 'Angemeldet als',
    formExpired: 'Dieses Formular ist nicht mehr gültig. Bitte versuchen Sie es erneut.',
    language: 'Sprache',
  },
  es: {
    signInTitle: 'Iniciar sesión',
    email: 'Correo electrónico',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    signOut: 'Cerrar sesión',
    signedInAs: 'Sesión iniciada como',
    formExpired: 'Este formulario ya no es válido. Inténtelo de nuevo.',
    language: 'Idioma',
  },
  'zh-Hans': {
    signInTitle: '登录',
    email: '电子邮件',
    password: '密码',
    signIn: '登录',
    signOut: '退出登录',
    signedInAs: '当前登录：',
    formExpired: '此表单已失效，请重试。',
    language: '语言',
  },
  'zh-Hant': {
    signInTitle: '登入',
    email: '電子郵件',
    password: '密碼',
    signIn: '登入',
    signOut: '登出',
    signedInAs: '目前登入：',
    formExpired: '此表單已失效，請重試。',
    language: '語言',
  },
};

/** What a page says and links to, in the language of its reader. */
export interface PageView<K extends string> {
  lang: Language;
  /** The language the reader chose with `?lang=`, which the page's links keep. */
  chosen: Language | undefined;
  text(key: K | SignInTextKey): string;
  /** A link of the page that keeps a chosen language, with more query parameters if any. */
  url(target: string, query?: Record<string, string>): string;
  /** This page's path, for its links in other languages. */
  path: string;
}

/** A page's view of a request: the chosen language (else the browser's), the page's words and the sign-in's. */
export function pageView<K extends string>(
  request: FastifyRequest,
  texts: Record<Language, Record<K, string>>,
): PageView<K> {
  const query = request.query as Record<string, unknown>;
  const chosen = typeof query.lang === 'string' ? supportedLanguage(query.lang) : undefined;
  const lang = chosen ?? request.lang;
  return {
    lang,
    chosen,
    text: (key) =>
      key in SIGN_IN_TEXTS.en
        ? SIGN_IN_TEXTS[lang][key as SignInTextKey]
        : (texts[lang][key as K] ?? texts.en[key as K]),
    url: (target, extra = {}) => {
      const params = new URLSearchParams({ ...(chosen ? { lang: chosen } : {}), ...extra }).toString();
      return params ? `${target}?${params}` : target;
    },
    path: request.url.split('?')[0]!,
  };
}

/** A session found in the cookie: its id, and the person it acts as (null: it opens nothing). */
export interface Session {
  id: string;
  person: Caller | null;
}

type Fields = Record<string, string | undefined>;

/** How a page reaches the catalog: its operations by name, run anonymously or as a session's person. */
export function pageCalls(catalog: Catalog, executor: Executor) {
  return {
    operation(name: string): Operation {
      const found = catalog.get(name);
      if (!found) throw new Error(`The catalog has no ${name} operation`);
      return found;
    },
    run(
      request: FastifyRequest,
      lang: Language,
      operation: Operation,
      input: unknown,
      person?: Caller,
      representation?: string,
    ): Promise<unknown> {
      return executor.execute(operation, input, {
        ...invocationOf(request, 'page', { lang, anonymous: true }),
        ...(person ? { signedIn: person } : {}),
        ...(representation ? { representation } : {}),
      });
    },
  };
}
export type PageCalls = ReturnType<typeof pageCalls>;

/** Why a form was not taken, to show above the page's form. */
export interface FormRefusal {
  status: number;
  message: string;
}

/** What a page tells its sign-in forms: the caller's language, its own links, how it shows itself. */
export interface SignedInPage {
  viewOf(request: FastifyRequest): { lang: Language; url(target: string): string };
  show(request: FastifyRequest, reply: FastifyReply, refusal?: FormRefusal): Promise<unknown>;
}

/** One page's sign-in: its path, its cookies' names, the sessions it opens. */
export class PageSignIn {
  private readonly sessionCookie: string;
  private readonly csrfCookie: string;
  private readonly login: Operation;
  private readonly logout: Operation;

  constructor(
    private readonly base: string,
    cookiePrefix: string,
    private readonly sessions: PageSessions,
    private readonly secureCookies: boolean,
    private readonly calls: PageCalls,
  ) {
    this.sessionCookie = cookiePrefix;
    this.csrfCookie = `${cookiePrefix}_csrf`;
    this.login = calls.operation('login');
    this.logout = calls.operation('logout');
  }

  /**
   * The page's forms: `POST {base}/sign-in` and `{base}/sign-out`, each checked against its CSRF
   * token, then back to the page (303); or the page again with the refusal above its form.
   */
  registerForms(app: FastifyInstance, page: SignedInPage): void {
    app.register(async (scope) => this.formRoutes(scope, page));
  }

  private formRoutes(scope: FastifyInstance, page: SignedInPage): void {
    acceptForms(scope);
    const expired = (request: FastifyRequest) => ({
      status: 403,
      message: SIGN_IN_TEXTS[page.viewOf(request).lang].formExpired,
    });
    scope.post(`${this.base}/sign-in`, async (request, reply) => {
      const lang = page.viewOf(request).lang;
      const fields = (request.body ?? {}) as Fields;
      if (!this.signInFormValid(request)) return page.show(request, reply, expired(request));
      try {
        const signedIn = (await this.calls.run(request, lang, this.login, {
          email: fields.email ?? '',
          password: fields.password ?? '',
        })) as { access_token: string };
        await this.open(request, reply, signedIn.access_token);
        return reply.redirect(page.viewOf(request).url(this.base), 303);
      } catch (error) {
        if (!isAppError(error)) throw error;
        return page.show(request, reply, {
          status: error.status,
          message: errorBody(error, lang, '').message,
        });
      }
    });
    scope.post(`${this.base}/sign-out`, async (request, reply) => {
      const session = await this.formSession(request);
      if (!session) return page.show(request, reply, expired(request));
      await this.signOut(request, reply, page.viewOf(request).lang, session);
      return reply.redirect(page.viewOf(request).url(this.base), 303);
    });
  }

  /** Ends a session: its sign-in's token revoked, the session revoked, the cookie cleared. */
  async signOut(
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Language,
    session: Session,
  ): Promise<void> {
    if (session.person)
      await this.calls.run(request, lang, this.logout, {}, session.person).catch(() => undefined);
    await this.close(reply, session);
  }

  /** The session the request's cookie names, if it names one. */
  async sessionOf(request: FastifyRequest): Promise<Session | undefined> {
    const id = cookiesOf(request)[this.sessionCookie];
    return id ? { id, person: await this.sessions.personOf(id) } : undefined;
  }

  /** The anti-forgery token of a session's forms: only a page that could read the session has it. */
  csrfOf(sessionId: string): string {
    return createHash('sha256')
      .update(`${this.base.slice(1)} csrf\n${sessionId}`)
      .digest('base64url');
  }

  /** Whether a token (an app's `X-CSRF-Token` header) is the session's anti-forgery token. */
  csrfMatches(sessionId: string, given: string | undefined): boolean {
    return given !== undefined && sameSecret(given, this.csrfOf(sessionId));
  }

  /** The session of a signed-in person's form, once its CSRF field matches the session. */
  async formSession(request: FastifyRequest): Promise<Session | undefined> {
    const id = cookiesOf(request)[this.sessionCookie];
    const csrf = ((request.body ?? {}) as Fields).csrf ?? '';
    if (!id || !sameSecret(csrf, this.csrfOf(id))) return undefined;
    const session = await this.sessionOf(request);
    return session?.person ? session : undefined;
  }

  /** A fresh anti-forgery token for the sign-in form, in its cookie; answers it for the form. */
  issueSignInCsrf(reply: FastifyReply): string {
    const csrf = randomBytes(24).toString('base64url');
    reply.header('set-cookie', this.cookie(this.csrfCookie, csrf));
    return csrf;
  }

  /** Whether a posted sign-in form carries the token its cookie holds. */
  signInFormValid(request: FastifyRequest): boolean {
    const expected = cookiesOf(request)[this.csrfCookie];
    const given = ((request.body ?? {}) as Fields).csrf ?? '';
    return expected !== undefined && sameSecret(given, expected);
  }

  /** Opens the page's session over a login token, ending the one the browser held before. */
  private async open(request: FastifyRequest, reply: FastifyReply, loginToken: string): Promise<void> {
    // The token stays here: the browser gets a session id of the page's own.
    const sessionId = await this.sessions.open(loginToken);
    if (!sessionId) throw new Error(`A person signed in, and no ${this.base} session opened`);
    const previous = cookiesOf(request)[this.sessionCookie];
    if (previous) await this.sessions.close(previous);
    reply.header('set-cookie', this.cookie(this.sessionCookie, sessionId, REVIEW_SESSION_MAX_HOURS * 3600));
  }

  /** Ends a session and clears its cookie. */
  private async close(reply: FastifyReply, session: Session): Promise<void> {
    await this.sessions.close(session.id);
    this.forget(reply);
  }

  /** Clears the session cookie (a session that opens nothing any more). */
  forget(reply: FastifyReply): void {
    reply.header('set-cookie', this.cookie(this.sessionCookie, '', 0));
  }

  private cookie(name: string, value: string, maxAgeSeconds?: number): string {
    return [
      `${name}=${value}`,
      `Path=${this.base}`,
      'HttpOnly',
      'SameSite=Strict',
      ...(this.secureCookies ? ['Secure'] : []),
      ...(maxAgeSeconds === undefined ? [] : [`Max-Age=${maxAgeSeconds}`]),
    ].join('; ');
  }
}

/** Forms post urlencoded fields; nothing else is taken in this scope. */
export function acceptForms(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}

/** The sign-in form, posting to `action`. */
export function signInForm(
  text: (key: SignInTextKey) => string,
  hint: string,
  action: string,
  csrf: string,
): SafeHtml {
  return html`<section class="card" aria-labelledby="sign-in-heading">
<h2 id="sign-in-heading">${text('signInTitle')}</h2>
<p>${hint}</p>
<form method="post" action="${action}" class="stack">
<input type="hidden" name="csrf" value="${csrf}">
<label for="email">${text('email')}</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254">
<label for="password">${text('password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="200">
<button type="submit">${text('signIn')}</button>
</form>
</section>`;
}

/** Who is signed in, with the sign-out button. */
export function signedInBar(
  text: (key: SignInTextKey) => string,
  who: { name: string; email: string },
  action: string,
  csrf: string,
): SafeHtml {
  return html`<form method="post" action="${action}" class="who">
<input type="hidden" name="csrf" value="${csrf}">
<p>${text('signedInAs')} <strong>${who.name}</strong> (${who.email})</p>
<button type="submit" class="secondary">${text('signOut')}</button>
</form>`;
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The cookies a request (a page's, or a WebSocket upgrade's) sends, by name. */
export function cookiesOf(request: { headers: { cookie?: string | string[] } }): Record<string, string> {
  const sent = request.headers.cookie;
  const header = (Array.isArray(sent) ? sent[0] : sent) ?? '';
  return Object.fromEntries(
    header
      .split(';')
      .map((part) => part.trim().split('='))
      .filter((pair) => pair.length === 2 && pair[0])
      .map(([name, value]) => [name!, value!]),
  );
}
