import type { output } from 'zod/v4/core';
import { httpClient, type HttpClient } from './httpClient';
import { parseAnswer, type AnswerSchema } from './parseAnswer';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type CallOptions = {
  method?: Method;
  /** Sent as JSON; left out when undefined. */
  body?: unknown;
  signal?: AbortSignal;
  /** The main API's client unless the call goes to the AI service. */
  client?: HttpClient;
};

/**
 * One JSON call to the API, its answer parsed through the contract's schema of that answer (given loaded, or as
 * its module loads: then the request does not wait for it). A failed call rejects with the client's HttpError
 * (status and the server's body), an answer of another shape with a ContractError.
 */
export async function call<S extends AnswerSchema>(
  schema: S | Promise<S>,
  url: string,
  { method = 'GET', body, signal, client = httpClient }: CallOptions = {},
): Promise<output<S>> {
  const [{ json }, answer] = await Promise.all([
    client(url, { method, signal, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
    schema,
  ]);
  return parseAnswer(answer, `${method} ${url}`, json);
}
