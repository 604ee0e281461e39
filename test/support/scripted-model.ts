import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Protocol = 'openai' | 'anthropic';

// biome-ignore lint/suspicious/noExplicitAny: the protocols' JSON bodies, read and asserted field by field
type Json = any;

/** A request the service sent, in its protocol's own JSON, with what a script needs read out of it. */
export interface ModelRequest {
  protocol: Protocol;
  body: Json;
  /** Tool names offered. */
  tools: string[];
  /** The text of the last plain user message: what the person asked in this turn. */
  asked: string;
  /** The tool results sent back so far in this turn, their content parsed from JSON. */
  results: unknown[];
}

/** What the scripted model answers: text, tool calls, or an HTTP error. */
export type ModelReply =
  | { text?: string; tool_calls?: Array<{ name: string; arguments: Record<string, unknown> }> }
  | { status: number }
  /** Never answers: the service's timeout ends the call. */
  | { hang: true };

/**
 * A model server on loopback speaking OpenAI Chat Completions (POST /v1/chat/completions) and
 * Anthropic Messages (POST /v1/messages), non-streaming, answering what the test's script says
 * and keeping every request it got. The service reaches it through the official SDKs.
 */
export class ScriptedModel {
  readonly requests: ModelRequest[] = [];
  script: (request: ModelRequest) => ModelReply = () => ({ text: 'Nothing scripted.' });
  private calls = 0;

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<ScriptedModel> {
    const server = http.createServer();
    const model = new ScriptedModel(server);
    server.on('request', (request, response) => model.answer(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return model;
  }

  /** AGENT_BASE_URL for a protocol (the OpenAI SDK's base includes /v1, Anthropic's does not). */
  baseUrl(protocol: Protocol): string {
    const { port } = this.server.address() as AddressInfo;
    return protocol === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  }

  /** The requests of one protocol sent since `from` (an index into `requests`). */
  since(from: number): ModelRequest[] {
    return this.requests.slice(from);
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse) {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const protocol: Protocol | undefined =
        request.url === '/v1/chat/completions'
          ? 'openai'
          : request.url === '/v1/messages'
            ? 'anthropic'
            : undefined;
      if (request.method !== 'POST' || !protocol) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      // As the real APIs do: every tool call is answered right after the message that made it.
      const unanswered = protocol === 'openai' ? unansweredOpenAi(body) : unansweredAnthropic(body);
      if (unanswered.length > 0) {
        const error = {
          error: { type: 'invalid_request_error', message: `unanswered tool calls ${unanswered}` },
        };
        response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const received = {
        protocol,
        body,
        ...(protocol === 'openai' ? readOpenAi(body) : readAnthropic(body)),
      };
      this.requests.push(received);
      let reply: ModelReply;
      try {
        reply = this.script(received);
      } catch (error) {
        reply = { status: 500 };
        console.error(error);
      }
      if ('hang' in reply) return;
      if ('status' in reply) {
        const error = { error: { type: 'server_error', message: `scripted failure ${reply.status}` } };
        response.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      const calls = (reply.tool_calls ?? []).map((call) => ({ ...call, id: `call_${++this.calls}` }));
      const text = reply.text ?? '';
      const model = `scripted-${protocol}`;
      const answer =
        protocol === 'openai'
          ? {
              id: `chatcmpl-${this.calls}`,
              object: 'chat.completion',
              created: Math.floor(Date.now() / 1000),
              model,
              choices: [
                {
                  index: 0,
                  finish_reason: calls.length ? 'tool_calls' : 'stop',
                  message: {
                    role: 'assistant',
                    content: text || null,
                    ...(calls.length
                      ? {
                          tool_calls: calls.map((call) => ({
                            id: call.id,
                            type: 'function',
                            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                          })),
                        }
                      : {}),
                  },
                },
              ],
              usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
            }
          : {
              id: `msg_${this.calls}`,
              type: 'message',
              role: 'assistant',
              model,
              content: [
                ...(text ? [{ type: 'text', text }] : []),
                ...calls.map((call) => ({
                  type: 'tool_use',
                  id: call.id,
                  name: call.name,
                  input: call.arguments,
                })),
              ],
              stop_reason: calls.length ? 'tool_use' : 'end_turn',
              stop_sequence: null,
              usage: { input_tokens: 100, output_tokens: 20 },
            };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  }
}

function parsed(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return text;
  }
}

function readOpenAi(body: Json) {
  const messages: Array<{ role: string; content: unknown }> = body.messages ?? [];
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  return {
    tools: (body.tools ?? []).map((tool: Json) => tool.function.name),
    asked: String(messages[lastUser]?.content ?? ''),
    results: messages
      .slice(lastUser + 1)
      .filter((message) => message.role === 'tool')
      .map((message) => parsed(message.content)),
  };
}

function readAnthropic(body: Json) {
  const messages: Array<{ role: string; content: unknown }> = body.messages ?? [];
  const lastUser = messages.findLastIndex(
    (message) => message.role === 'user' && typeof message.content === 'string',
  );
  return {
    tools: (body.tools ?? []).map((tool: Json) => tool.name),
    asked: String(messages[lastUser]?.content ?? ''),
    results: messages
      .slice(lastUser + 1)
      .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
      .filter((block: Json) => block.type === 'tool_result')
      .map((block: Json) => parsed(block.content)),
  };
}

/** Tool call ids of an assistant message not answered by the tool messages right after it. */
function unansweredOpenAi(body: Json): string[] {
  const messages: Json[] = body.messages ?? [];
  return messages.flatMap((message, i) => {
    if (message.role !== 'assistant' || !message.tool_calls) return [];
    const answered = new Set<string>();
    for (let next = i + 1; messages[next]?.role === 'tool'; next++) answered.add(messages[next].tool_call_id);
    return message.tool_calls.map((call: Json) => call.id).filter((id: string) => !answered.has(id));
  });
}

/** Tool use ids of an assistant message not answered by tool results in the one user message after it. */
function unansweredAnthropic(body: Json): string[] {
  const messages: Json[] = body.messages ?? [];
  return messages.flatMap((message, i) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return [];
    const next = messages[i + 1];
    const answered = new Set<string>(
      (next?.role === 'user' && Array.isArray(next.content) ? next.content : []).map(
        (block: Json) => block.tool_use_id,
      ),
    );
    return message.content
      .filter((block: Json) => block.type === 'tool_use')
      .map((block: Json) => block.id)
      .filter((id: string) => !answered.has(id));
  });
}
