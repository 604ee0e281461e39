// The operations agent's panel of the dispatch console (served by src/doors/pages/agent-panel.ts):
// sends the person's turns, shows the agent's answer with the tools it called and the writes it
// proposed, and approves or rejects a proposal in place. It writes text only through textContent.
(() => {
  const data = JSON.parse(document.getElementById('agent-data').textContent);
  /** A word of the page, placeholders filled; one the page did not send shows as ⟦key⟧, reported. */
  const text = (key, values = {}) => {
    const words = data.texts[key];
    if (typeof words !== 'string') {
      console.error(`The page sent no text "${key}"`);
      return `⟦${key}⟧`;
    }
    return words.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
  };
  const form = document.getElementById('agent-form');
  const field = document.getElementById('agent-text');
  const log = document.getElementById('agent-log');
  const state = document.getElementById('agent-state');
  let conversation = null;

  const element = (tag, content, className) => {
    const node = document.createElement(tag);
    if (content !== undefined) node.textContent = content;
    if (className) node.className = className;
    return node;
  };

  /** Posts the page's form fields with its anti-forgery token; answers the JSON body and status. */
  async function post(path, fields) {
    const body = new URLSearchParams({ ...fields, csrf: data.csrf });
    const answer = await fetch(path, { method: 'POST', body, credentials: 'same-origin' });
    return { ok: answer.ok, body: await answer.json() };
  }

  function say(who, content, className) {
    const item = element('li', undefined, `turn ${className}`);
    item.append(element('p', who, 'who'), element('p', content));
    log.append(item);
    return item;
  }

  function toolCalls(item, calls) {
    if (calls.length === 0) return;
    const details = element('details', undefined, 'tools');
    details.append(element('summary', text('toolCalls', { count: calls.length })));
    const list = element('ul');
    for (const call of calls) {
      const line = `${call.name} ${JSON.stringify(call.arguments)} → ${call.summary}`;
      list.append(element('li', line, call.refused ? 'refused' : undefined));
    }
    details.append(list);
    item.append(details);
  }

  function proposal(item, proposed) {
    const card = element('div', undefined, 'proposal');
    card.append(element('p', text('proposal', { title: proposed.title }), 'who'));
    card.append(element('p', proposed.reason));
    card.append(element('pre', JSON.stringify(proposed.arguments, null, 2)));
    const status = element('p', text(proposed.status), 'meta');
    status.setAttribute('role', 'status');
    card.append(status);
    if (proposed.status === 'pending') {
      const actions = element('div', undefined, 'actions');
      const approve = element('button', text('approve'));
      const reject = element('button', text('reject'), 'secondary');
      approve.type = 'button';
      reject.type = 'button';
      const decide = async (path) => {
        approve.disabled = true;
        reject.disabled = true;
        const answer = await post(path, { proposal_id: String(proposed.id) });
        if (!answer.ok) {
          status.textContent = answer.body.message;
          approve.disabled = false;
          reject.disabled = false;
          return;
        }
        const decided = answer.body.proposal;
        const failed = decided.status === 'approved' && decided.succeeded === false;
        status.textContent = failed ? text('failedToRun') : text(decided.status);
        actions.remove();
      };
      approve.addEventListener('click', () => decide(data.approve));
      reject.addEventListener('click', () => decide(data.reject));
      actions.append(approve, reject);
      card.append(actions);
    }
    item.append(card);
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const asked = field.value.trim();
    if (!asked) return;
    say(text('you'), asked, 'mine');
    field.value = '';
    form.querySelector('button').disabled = true;
    state.textContent = text('thinking');
    try {
      const answer = await post(data.turn, {
        text: asked,
        ...(conversation ? { conversation_id: conversation } : {}),
      });
      if (!answer.ok) {
        say(text('agent'), answer.body.message, 'refusal');
        return;
      }
      conversation = String(answer.body.conversation_id);
      const turn = answer.body.turn;
      const item = say(text('agent'), turn.answer, 'agent');
      toolCalls(item, turn.tool_calls);
      for (const proposed of turn.proposals) proposal(item, proposed);
    } finally {
      state.textContent = '';
      form.querySelector('button').disabled = false;
      field.focus();
    }
  });
})();
