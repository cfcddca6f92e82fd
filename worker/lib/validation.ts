// Input parsing for handlers: every body, query and param goes through a zod schema,
// and the first problem becomes a 400 whose message a person can read.
import type { Context, Env } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { InferInput } from 'hono/validator';
import type { z } from 'zod';
import { idParam } from '../schemas/common';
import { AppError, invalid } from './errors';

export const MAX_JSON_BYTES = 64 * 1024;

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) {
    const field = fieldWithNulCharacter(result.data);
    // Postgres text cannot hold U+0000: stored or searched, it would fail the statement.
    if (field !== null) throw invalid(`${field ? `${field}: ` : ''}Text must not contain NUL characters.`);
    return result.data;
  }
  const issue = result.error.issues[0];
  const field = issue.path.length ? issue.path.join('.') : '';
  // zod's stock texts ("Invalid input: expected string...") are for developers; name the field.
  const message =
    issue.message.startsWith('Invalid input') || issue.message.startsWith('Too ') || issue.message.startsWith('Unrecognized')
      ? `${field ? `${field}: ` : ''}${issue.message}`
      : issue.message;
  throw invalid(message);
}

/** The id a route's path names (its :id unless `param` says otherwise), or a 400 that calls it `label`. */
export const pathId = (c: Context, label: string, param = 'id') => parseWith(idParam(label), c.req.param(param));

/** The path of the first string (value or key) holding U+0000 in validated input, '' for the input itself; null when there is none. */
function fieldWithNulCharacter(value: unknown): string | null {
  // Iterative: a schema may pass nested input through (z.unknown()), and JSON can nest deeper than the stack.
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return item.path;
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, child] of Object.entries(item.value)) {
        const path = item.path ? `${item.path}.${key}` : key;
        if (key.includes('\u0000')) return item.path;
        pending.push({ value: child, path });
      }
    }
  }
  return null;
}

async function readText(c: Context, limit: number): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > limit) throw new AppError('too_large', 'Request body is too large.');
  const text = await c.req.text();
  if (text.length > limit) throw new AppError('too_large', 'Request body is too large.');
  return text;
}

/** Reads a JSON body (empty counts as {}) and validates it. */
async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await readText(c, MAX_JSON_BYTES);
  let data: unknown = {};
  if (text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      throw invalid('Malformed JSON body.');
    }
  }
  return parseWith(schema, data);
}

/** Reads a form-encoded (or multipart) body as plain fields and validates it. */
async function parseForm<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) return parseJson(c, schema);
  if (!type.includes('application/x-www-form-urlencoded') && !type.includes('multipart/form-data')) {
    throw new AppError('unsupported_media', 'Send the form as application/x-www-form-urlencoded.');
  }
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_JSON_BYTES) throw new AppError('too_large', 'Request body is too large.');
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw invalid('Malformed form body.');
  }
  return parseWith(schema, form);
}

type Target = 'json' | 'query' | 'form';

/**
 * A validator's types as Hono reads them: `in` is what `hc` clients send (left optional when an empty
 * input passes, so they may omit it), `out` what the handler gets from `c.req.valid(target)`.
 */
type Validated<T extends Target, In, Out> = {
  in: Record<never, never> extends In ? { [K in T]?: In } : { [K in T]: In };
  out: { [K in T]: Out };
};

/** Query and form values arrive as text: Hono's InferInput keeps what text can hold (enums) and widens the rest. */
type SentAs<T extends Target, S extends z.ZodType> = T extends 'json' ? z.input<S> : InferInput<z.input<S>, Exclude<T, 'json'>>;

// Our own parsers rather than hono/validator's, which would change answers the API has always given: it
// ignores a body sent without a JSON content type, refuses an empty one in its own words, and reads
// repeated query keys as arrays.
const validatorOf =
  <T extends Target>(target: T, parse: <S extends z.ZodType>(c: Context, schema: S) => Promise<z.output<S>>) =>
  <S extends z.ZodType<object>>(schema: S) =>
    createMiddleware<Env, string, Validated<T, SentAs<T, S>, z.output<S>>>(async (c, next) => {
      c.req.addValidatedData(target, await parse(c, schema));
      await next();
    });

/** The JSON body (empty counts as {}), validated; the handler reads it with `c.req.valid('json')`. */
export const validJson = validatorOf('json', parseJson);

/** The form-encoded or multipart body (JSON too), validated; read with `c.req.valid('form')`. */
export const validForm = validatorOf('form', parseForm);

/** The query string, validated; read with `c.req.valid('query')`. */
export const validQuery = validatorOf('query', async (c, schema) => parseWith(schema, c.req.query()));
