import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { AgentSettings } from '../../config.ts';

/** A tool as the model is offered it: the MCP user server's declaration (name, guide, JSON Schema). */
export interface ModelTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface ModelToolCall {
  /** The provider's id of the call, which its result must name. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** The conversation as the port speaks it; each adapter turns it into its protocol's messages. */
export type ModelMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; tool_calls: ModelToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

export interface Completion {
  text: string;
  tool_calls: ModelToolCall[];
  usage: { input_tokens: number; output_tokens: number };
  model: string;
}

/** The port to a model provider: one completion of a conversation with tools. */
export interface ModelProvider {
  complete(request: { system: string; messages: ModelMessage[]; tools: ModelTool[] }): Promise<Completion>;
}

/** The provider did not answer in time, or answered with an error: the turn fails as a whole. */
export class ProviderFailure extends Error {
  constructor(
    readonly timedOut: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}

/** The configured provider, or none (turns then answer 503 AGENT_PROVIDER_NOT_CONFIGURED). */
export function providerOf(settings: AgentSettings['provider']): ModelProvider | undefined {
  if (!settings) return undefined;
  return settings.protocol === 'anthropic' ? new AnthropicMessages(settings) : new OpenAiChat(settings);
}

type Settings = NonNullable<AgentSettings['provider']>;

/** The options both SDKs' clients are made with. */
function clientOptions(settings: Settings) {
  return {
    apiKey: settings.apiKey ?? 'none',
    baseURL: settings.baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: 0,
  };
}

/** Arguments as JSON text from the model; anything that is not an object becomes an empty one. */
function parsedArguments(text: string | undefined): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** Runs a provider call, turning the SDK's errors into a ProviderFailure. */
async function calling<T>(timeoutError: new (...args: never[]) => Error, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderFailure(error instanceof timeoutError, message);
  }
}

/** The OpenAI Chat Completions protocol: OpenAI itself, or vLLM, llama.cpp, Ollama at AGENT_BASE_URL. */
class OpenAiChat implements ModelProvider {
  // The SDK loads at the first turn (a fifth of a second): a service that never asks never loads it.
  private client?: OpenAI;

  constructor(private readonly settings: Settings) {}

  async complete(request: { system: string; messages: ModelMessage[]; tools: ModelTool[] }) {
    const { default: Sdk } = await import('openai');
    this.client ??= new Sdk(clientOptions(this.settings));
    const client = this.client;
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: request.system },
      ...request.messages.map((message): OpenAI.Chat.ChatCompletionMessageParam => {
        if (message.role === 'user') return { role: 'user', content: message.text };
        if (message.role === 'tool')
          return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
        return {
          role: 'assistant',
          content: message.text || null,
          ...(message.tool_calls.length
            ? {
                tool_calls: message.tool_calls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                })),
              }
            : {}),
        };
      }),
    ];
    const answer = await calling(Sdk.APIConnectionTimeoutError, () =>
      client.chat.completions.create({
        model: this.settings.model,
        messages,
        tools: request.tools.map((tool) => ({
          type: 'function' as const,
          function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
        })),
      }),
    );
    const message = answer.choices[0]?.message;
    return {
      text: message?.content ?? '',
      tool_calls: (message?.tool_calls ?? []).flatMap((call) =>
        call.type === 'function'
          ? [{ id: call.id, name: call.function.name, arguments: parsedArguments(call.function.arguments) }]
          : [],
      ),
      usage: {
        input_tokens: answer.usage?.prompt_tokens ?? 0,
        output_tokens: answer.usage?.completion_tokens ?? 0,
      },
      model: answer.model || this.settings.model,
    };
  }
}

/** Anthropic's Messages API. */
class AnthropicMessages implements ModelProvider {
  // Loaded at the first turn, as OpenAiChat's.
  private client?: Anthropic;

  constructor(private readonly settings: Settings) {}

  async complete(request: { system: string; messages: ModelMessage[]; tools: ModelTool[] }) {
    const { default: Sdk } = await import('@anthropic-ai/sdk');
    this.client ??= new Sdk(clientOptions(this.settings));
    const client = this.client;
    const messages: Anthropic.MessageParam[] = [];
    for (const message of request.messages) {
      if (message.role === 'user') messages.push({ role: 'user', content: message.text });
      else if (message.role === 'assistant') {
        messages.push({
          role: 'assistant',
          content: [
            ...(message.text ? [{ type: 'text' as const, text: message.text }] : []),
            ...message.tool_calls.map((call) => ({
              type: 'tool_use' as const,
              id: call.id,
              name: call.name,
              input: call.arguments,
            })),
          ],
        });
      } else {
        // The results of one assistant message's calls go back together, in one user message.
        const result = {
          type: 'tool_result' as const,
          tool_use_id: message.tool_call_id,
          content: message.content,
        };
        const last = messages.at(-1);
        if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(result);
        else messages.push({ role: 'user', content: [result] });
      }
    }
    const answer = await calling(Sdk.APIConnectionTimeoutError, () =>
      client.messages.create({
        model: this.settings.model,
        max_tokens: 4096,
        system: request.system,
        messages,
        tools: request.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          input_schema: { ...tool.input_schema, type: 'object' as const },
        })),
      }),
    );
    return {
      text: answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n'),
      tool_calls: answer.content.flatMap((block) =>
        block.type === 'tool_use'
          ? [{ id: block.id, name: block.name, arguments: (block.input ?? {}) as Record<string, unknown> }]
          : [],
      ),
      usage: { input_tokens: answer.usage.input_tokens, output_tokens: answer.usage.output_tokens },
      model: answer.model || this.settings.model,
    };
  }
}
