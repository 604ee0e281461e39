import { type ApiError, answer, type Schemas } from '../shared/api.ts';
import { html, useEffect, useRef, useState } from '../shared/ui.ts';
import type { ConsoleContext } from './context.ts';

type Turn = Schemas['AgentTurn'];
type Proposal = Schemas['Approval'];

type Entry =
  | { kind: 'mine'; text: string }
  | { kind: 'agent'; turn: Turn }
  | { kind: 'refusal'; text: string };

/**
 * The operations agent's panel: the person's turns go to `send_agent_turn` (a conversation opened
 * on the first), the agent answers with the tools it called, and each write it proposed is a card
 * approved or rejected in place through the approval queue's operations, all as the person. Shown
 * only where the API lets the person read their agent conversations (the agent on and set up, the
 * person allowed): the probe's refusal shows nothing.
 */
export function AgentPanel(props: { context: ConsoleContext }) {
  const { context } = props;
  const { api, t } = context;
  const [usable, setUsable] = useState(false);
  const [log, setLog] = useState<Entry[]>([]);
  const [draft, setDraft] = useState('');
  const [thinking, setThinking] = useState(false);
  const conversation = useRef<number | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    answer(api.GET('/v1/agent/conversations', { params: { query: { per_page: 1 } } })).then(
      () => setUsable(true),
      () => setUsable(false),
    );
  }, []);
  if (!usable) return '';

  const send = async (event: Event) => {
    event.preventDefault();
    const asked = draft.trim();
    if (!asked || thinking) return;
    setLog((held) => [...held, { kind: 'mine', text: asked }]);
    setDraft('');
    setThinking(true);
    try {
      if (conversation.current === null) {
        const opened = await answer(api.POST('/v1/agent/conversations', { body: {} }));
        conversation.current = opened.conversation.id;
      }
      const answered = await answer(
        api.POST('/v1/agent/conversations/{conversation_id}/turns', {
          params: { path: { conversation_id: conversation.current } },
          body: { text: asked },
        }),
      );
      setLog((held) => [...held, { kind: 'agent', turn: answered.turn }]);
    } catch (error) {
      setLog((held) => [...held, { kind: 'refusal', text: (error as ApiError).message }]);
    } finally {
      setThinking(false);
      field.current?.focus();
    }
  };

  return html`<section class="card agent" aria-labelledby="agent-heading">
    <h2 id="agent-heading">${t('agentHeading')}</h2>
    <p class="meta">${t('agentHint')}</p>
    <ol id="agent-log" class="agent-log" aria-live="polite">
      ${log.map((entry, index) => html`<${LogEntry} key=${index} context=${context} entry=${entry} />`)}
    </ol>
    <form id="agent-form" class="stack" onSubmit=${send}>
      <label for="agent-text">${t('agentAsk')}</label>
      <textarea
        id="agent-text"
        ref=${field}
        rows="3"
        maxlength="4000"
        required
        value=${draft}
        onInput=${(event: Event) => setDraft((event.target as HTMLTextAreaElement).value)}
      ></textarea>
      <button type="submit" disabled=${thinking}>${t('agentSend')}</button>
      <p class="meta" role="status">${thinking ? t('agentThinking') : ''}</p>
    </form>
  </section>`;
}

function LogEntry(props: { context: ConsoleContext; entry: Entry }) {
  const { context, entry } = props;
  const { t } = context;
  if (entry.kind === 'mine') {
    return html`<li class="turn mine"><p class="who">${t('agentYou')}</p><p>${entry.text}</p></li>`;
  }
  if (entry.kind === 'refusal') {
    return html`<li class="turn refusal"><p class="who">${t('agentName')}</p><p>${entry.text}</p></li>`;
  }
  const { turn } = entry;
  return html`<li class="turn agent">
    <p class="who">${t('agentName')}</p>
    <p>${turn.answer}</p>
    ${
      turn.tool_calls.length > 0
        ? html`<details class="tools">
            <summary>${t('agentToolCalls', { count: turn.tool_calls.length })}</summary>
            <ul>
              ${turn.tool_calls.map(
                (call) =>
                  html`<li class=${call.refused ? 'refused' : ''}>
                    ${call.name} ${JSON.stringify(call.arguments)} → ${call.summary}
                  </li>`,
              )}
            </ul>
          </details>`
        : ''
    }
    ${turn.proposals.map((proposal) => html`<${ProposalCard} key=${proposal.id} context=${context} proposal=${proposal} />`)}
  </li>`;
}

/** A write the agent proposed: approved or rejected here, its status shown after. */
function ProposalCard(props: { context: ConsoleContext; proposal: Proposal }) {
  const { context } = props;
  const { api, t } = context;
  const [proposal, setProposal] = useState(props.proposal);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const decide = async (approve: boolean) => {
    setBusy(true);
    try {
      const path = { proposal_id: proposal.id };
      const decided = approve
        ? await answer(api.POST('/v1/agent/approvals/{proposal_id}/approve', { params: { path } }))
        : await answer(
            api.POST('/v1/agent/approvals/{proposal_id}/reject', {
              params: { path },
              body: { reason: t('agentRejectReason') },
            }),
          );
      setProposal(decided.proposal);
      setFailure(null);
    } catch (error) {
      setFailure((error as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  const failedToRun = proposal.status === 'approved' && proposal.succeeded === false;
  return html`<div class="proposal" data-proposal=${proposal.id}>
    <p class="who">${t('agentProposal', { title: proposal.title })}</p>
    <p>${proposal.reason}</p>
    <pre>${JSON.stringify(proposal.arguments, null, 2)}</pre>
    <p class="meta" role="status">
      ${failure ?? (failedToRun ? t('agentFailedToRun') : t(`proposal_${proposal.status}`))}
    </p>
    ${
      proposal.status === 'pending'
        ? html`<div class="actions">
            <button type="button" disabled=${busy} onClick=${() => decide(true)}>${t('approve')}</button>
            <button type="button" class="secondary" disabled=${busy} onClick=${() => decide(false)}>
              ${t('reject')}
            </button>
          </div>`
        : ''
    }
  </div>`;
}
