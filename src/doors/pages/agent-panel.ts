import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../platform/catalog/executor.ts';
import type { Caller } from '../../platform/catalog/operation.ts';
import { AppError, isAppError } from '../../platform/errors.ts';
import { html, SafeHtml } from '../../platform/html.ts';
import { errorBody } from '../../platform/http/errors.ts';
import type { Language } from '../../platform/i18n/index.ts';
import { pageScript } from './layout.ts';
import { SCRIPT_TEXTS } from './script-texts.ts';
import { acceptForms, type PageCalls, type PageSignIn } from './sign-in.ts';

/**
 * The operations agent's panel of a signed-in page (the dispatch console): the person's turns go
 * to `send_agent_turn` (a conversation opened on the first), and a proposal the agent made is
 * approved or rejected in place with the approval queue's own operations, all as the person
 * signed in. Form posts with the session's anti-forgery token; answers in JSON.
 */
export class AgentPanel {
  private readonly script: string;
  private readonly open;
  private readonly conversations;
  private readonly turn;
  private readonly approve;
  private readonly reject;

  constructor(
    app: FastifyInstance,
    private readonly base: string,
    private readonly signIn: PageSignIn,
    private readonly calls: PageCalls,
    private readonly executor: Executor,
    private readonly langOf: (request: FastifyRequest) => Language,
  ) {
    this.script = pageScript(app, base, 'agent');
    this.open = calls.operation('create_agent_conversation');
    this.conversations = calls.operation('list_agent_conversations');
    this.turn = calls.operation('send_agent_turn');
    this.approve = calls.operation('approve_pending_write');
    this.reject = calls.operation('reject_pending_write');
    app.register(async (scope) => this.routes(scope));
  }

  /** The page's script for the panel, to load after the page's own. */
  get scriptAddress(): string {
    return this.script;
  }

  /**
   * The panel, for a person who may send turns in a business whose agent is on and set up (their
   * conversations can be read); nothing for anyone else.
   */
  async body(request: FastifyRequest, lang: Language, person: Caller, csrf: string): Promise<SafeHtml> {
    if (this.executor.refusal(this.turn, person, 'page')) return html``;
    try {
      await this.calls.run(request, lang, this.conversations, { per_page: 1 }, person);
    } catch (error) {
      if (isAppError(error)) return html``;
      throw error;
    }
    const texts = SCRIPT_TEXTS.agent[lang];
    const data = JSON.stringify({
      texts,
      csrf,
      turn: `${this.base}/agent/turn`,
      approve: `${this.base}/agent/approve`,
      reject: `${this.base}/agent/reject`,
    }).replaceAll('<', '\\u003c');
    return html`<section class="card agent" aria-labelledby="agent-heading">
<h2 id="agent-heading">${texts.heading}</h2>
<p class="meta">${texts.hint}</p>
<ol id="agent-log" class="agent-log" aria-live="polite"></ol>
<form id="agent-form" class="stack">
<label for="agent-text">${texts.ask}</label>
<textarea id="agent-text" name="text" rows="3" maxlength="4000" required></textarea>
<button type="submit">${texts.send}</button>
<p id="agent-state" class="meta" role="status"></p>
</form>
</section>
<script type="application/json" id="agent-data">${new SafeHtml(data)}</script>`;
  }

  private routes(scope: FastifyInstance): void {
    acceptForms(scope);
    scope.post(`${this.base}/agent/turn`, (request, reply) =>
      this.asPerson(request, reply, async (lang, person, fields) => {
        let conversationId = Number(fields.conversation_id);
        if (!Number.isInteger(conversationId) || conversationId <= 0) {
          const opened = (await this.calls.run(request, lang, this.open, {}, person)) as {
            conversation: { id: number };
          };
          conversationId = opened.conversation.id;
        }
        const answer = (await this.calls.run(
          request,
          lang,
          this.turn,
          { conversation_id: conversationId, text: fields.text ?? '' },
          person,
        )) as { turn: unknown };
        return { result: true, conversation_id: conversationId, turn: answer.turn };
      }),
    );
    for (const [path, operation] of [
      ['approve', this.approve],
      ['reject', this.reject],
    ] as const) {
      scope.post(`${this.base}/agent/${path}`, (request, reply) =>
        this.asPerson(request, reply, (lang, person, fields) =>
          this.calls.run(
            request,
            lang,
            operation,
            { proposal_id: Number(fields.proposal_id), ...(path === 'reject' ? { reason: '' } : {}) },
            person,
          ),
        ),
      );
    }
  }

  /** Runs `work` as the person of the form's session; refusals in the error shape. */
  private async asPerson(
    request: FastifyRequest,
    reply: FastifyReply,
    work: (lang: Language, person: Caller, fields: Record<string, string>) => Promise<unknown>,
  ) {
    const lang = this.langOf(request);
    reply.header('cache-control', 'no-store');
    try {
      const session = await this.signIn.formSession(request);
      if (!session?.person) throw new AppError('UNAUTHENTICATED');
      return await work(lang, session.person, (request.body ?? {}) as Record<string, string>);
    } catch (error) {
      if (!isAppError(error)) throw error;
      return reply.status(error.status).send(errorBody(error, lang, request.id));
    }
  }
}
