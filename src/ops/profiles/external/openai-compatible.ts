import { AppError } from '../../../errors.js';
import { profileLimits } from '../../../limits.js';
import type { ProfileProviderPort } from '../../../contract/capabilities.js';
import { CircuitBreaker } from './circuit-breaker.js';

export interface ExternalProviderSettings {
  /** Full URL of the chat-completions endpoint, e.g. https://host/v1/chat/completions. */
  readonly url: string;
  readonly model: string;
  /** Sent as `Authorization: Bearer <key>`; may be empty for local servers. */
  readonly apiKey: string;
  readonly timeoutMs: number;
}

const systemPrompt =
  'You generate synthetic test-data persons for payment QA. Answer with one JSON object only, no prose, with the ' +
  'string fields first_name, last_name, gender ("female" or "male"), date_of_birth (YYYY-MM-DD), street, ' +
  'postal_code, city and occupation. The person must be fictional and belong to the given country.';

function unavailable(message: string, cause?: unknown): AppError {
  return new AppError(
    'unavailable',
    `Profile provider unavailable: ${message}; nothing was debited`,
    {},
    { cause },
  );
}

/** Reads at most `max` bytes of the body: a provider cannot make us buffer an unbounded answer. */
async function boundedText(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw unavailable(`answer larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The message content of a chat-completions answer, parsed as a JSON object (a ```json fence is tolerated). */
export function contentObject(body: unknown): Record<string, unknown> {
  const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]
    ?.message?.content;
  if (typeof content !== 'string') throw unavailable('answer has no choices[0].message.content');
  const unfenced = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfenced);
  } catch (error) {
    throw unavailable('answer content is not JSON', error);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw unavailable('answer content is not a JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * An OpenAI-compatible chat-completions client with a bounded timeout and a circuit breaker. Every failure
 * (refused connection, HTTP error, timeout, oversized or malformed answer, open circuit) is AppError unavailable
 * (503): the service refunds the reservation, so nothing is debited.
 */
export class OpenAiCompatibleProvider implements ProfileProviderPort {
  readonly name = 'openai-compatible';
  readonly breaker: CircuitBreaker;

  constructor(
    private readonly settings: ExternalProviderSettings,
    clock: () => number = Date.now,
  ) {
    this.breaker = new CircuitBreaker(
      profileLimits.breakerFailuresToOpen,
      profileLimits.breakerOpenMs,
      clock,
    );
  }

  get model(): string {
    return this.settings.model;
  }

  async complete(prompt: string): Promise<Record<string, unknown>> {
    if (!this.breaker.tryAcquire()) {
      throw unavailable(
        `circuit open after repeated failures, next trial in ${Math.ceil(this.breaker.retryAfterMs() / 1000)} s`,
      );
    }
    try {
      const result = await this.call(prompt);
      this.breaker.succeeded();
      return result;
    } catch (error) {
      this.breaker.failed();
      throw error instanceof AppError ? error : unavailable('request failed', error);
    }
  }

  private async call(prompt: string): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.settings.apiKey !== '') headers.authorization = `Bearer ${this.settings.apiKey}`;
    const body = JSON.stringify({
      model: this.settings.model,
      messages: [
        { role: 'system', content: systemPrompt },
        { role: 'user', content: prompt },
      ],
      response_format: { type: 'json_object' },
    });
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.settings.url, { method: 'POST', headers, body, signal });
    } catch (error) {
      throw unavailable(
        signal.aborted ? `no answer within ${this.settings.timeoutMs} ms` : 'unreachable',
        error,
      );
    }
    let text: string;
    try {
      text = await boundedText(response, profileLimits.externalResponseBytesMax);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unavailable(
        signal.aborted ? `no answer within ${this.settings.timeoutMs} ms` : 'answer cut off',
        error,
      );
    }
    if (!response.ok) throw unavailable(`HTTP ${response.status}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw unavailable('answer is not JSON', error);
    }
    return contentObject(parsed);
  }
}
