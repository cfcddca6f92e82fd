// Client for the "API v2" protocol that SMM panels (PerfectPanel and its clones)
// expose: one URL, form-encoded POSTs carrying `key` and `action`, JSON answers.
// Panels differ in small ways, so every answer is read defensively: errors come
// as HTTP 200 with {"error": "..."}, numbers arrive as strings, status words
// vary in spelling, and batch answers come in more than one shape (read in answers.ts).

import { excerpt, type FetchImpl, fetchJson, globalFetch, isRecord, type JsonAnswer, TransportFailure } from '../http';
import { errorMessage, garbage, readId, readMoney, readPerOrderList, readRefillStatus, readService } from './answers';
import { readOrderState } from './order-state';
import {
  type SmmAddOrderInput,
  type SmmItemResult,
  type SmmOrderState,
  SmmProviderError,
  type SmmRefillStatus,
  type SmmServiceCatalogue,
  type SmmStatusEntry,
} from './types';

export interface SmmClientOptions {
  /** The panel's API endpoint, e.g. https://panel.example/api/v2 */
  apiUrl: string;
  apiKey: string;
  timeoutMs?: number;
  fetchImpl?: FetchImpl;
}

export interface SmmClient {
  services(): Promise<SmmServiceCatalogue>;
  /**
   * Places an order. On an 'unavailable' error the order may or may not exist at
   * the provider: never send the same `add` again blindly.
   */
  add(input: SmmAddOrderInput): Promise<{ orderId: string }>;
  status(orderId: string): Promise<SmmOrderState>;
  /**
   * Status of many orders, asked 100 at a time; keyed by the ids given. Never throws for the
   * panel's sake: a batch that gets no readable answer marks its orders `unanswered`, and each
   * entry is read on its own.
   */
  statuses(orderIds: readonly string[]): Promise<Map<string, SmmStatusEntry>>;
  balance(): Promise<{ balanceMicros: bigint; currency: string }>;
  refill(orderId: string): Promise<{ refillId: string }>;
  refills(orderIds: readonly string[]): Promise<Map<string, SmmItemResult<{ refillId: string }>>>;
  refillStatus(refillId: string): Promise<SmmRefillStatus>;
  refillStatuses(refillIds: readonly string[]): Promise<Map<string, SmmItemResult<{ status: SmmRefillStatus }>>>;
  /** Asks the panel to cancel orders; ok means the request was accepted, not that the order is canceled yet. */
  cancel(orderIds: readonly string[]): Promise<Map<string, SmmItemResult<object>>>;
}

/** The protocol's limit on ids per batch call. */
const BATCH_LIMIT = 100;

const MISSING_FROM_ANSWER = 'Missing from the provider answer';

function uniqueIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => String(id).trim()).filter((id) => id !== ''))];
}

function batches(ids: string[]): string[][] {
  const result: string[][] = [];
  for (let start = 0; start < ids.length; start += BATCH_LIMIT) result.push(ids.slice(start, start + BATCH_LIMIT));
  return result;
}

function listField(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join('\n') : value;
}

export function createSmmClient({ apiUrl, apiKey, timeoutMs = 15_000, fetchImpl = globalFetch }: SmmClientOptions): SmmClient {
  /**
   * One API call. Returns the parsed answer when it is not an error; throws
   * 'rejected' for {"error"} answers and 'unavailable' for anything unreadable.
   */
  async function call(action: string, params: Record<string, string | number | undefined> = {}): Promise<unknown> {
    const form = new URLSearchParams({ key: apiKey, action });
    for (const [name, value] of Object.entries(params)) {
      if (value !== undefined) form.set(name, String(value));
    }
    let answer: JsonAnswer;
    try {
      answer = await fetchJson(fetchImpl, apiUrl, { method: 'POST', headers: { accept: 'application/json' }, body: form }, timeoutMs);
    } catch (error) {
      if (error instanceof TransportFailure) {
        throw new SmmProviderError(action, 'unavailable', `SMM provider ${action}: ${error.message}`, null, { cause: error });
      }
      throw error;
    }
    const { httpStatus, body, text } = answer;
    if (httpStatus >= 500 || body === undefined) {
      throw new SmmProviderError(action, 'unavailable', `SMM provider ${action}: HTTP ${httpStatus}, unreadable answer: ${excerpt(text)}`, httpStatus);
    }
    const refusal = errorMessage(body);
    if (refusal !== null) throw new SmmProviderError(action, 'rejected', refusal, httpStatus);
    if (httpStatus >= 400) {
      throw new SmmProviderError(action, 'unavailable', `SMM provider ${action}: HTTP ${httpStatus}: ${excerpt(text)}`, httpStatus);
    }
    return body;
  }

  /**
   * Runs a batch action 100 ids at a time and lines the answers up with the ids
   * asked for; ids the panel did not answer for come back as errors.
   */
  async function batch<T>(
    action: string,
    idsParam: string,
    ids: readonly string[],
    readAnswer: (answer: unknown, results: Map<string, SmmItemResult<T>>) => void,
  ): Promise<Map<string, SmmItemResult<T>>> {
    const wanted = uniqueIds(ids);
    const answered = new Map<string, SmmItemResult<T>>();
    for (const chunk of batches(wanted)) {
      readAnswer(await call(action, { [idsParam]: chunk.join(',') }), answered);
    }
    return new Map(wanted.map((id) => [id, answered.get(id) ?? { ok: false, error: MISSING_FROM_ANSWER }]));
  }

  /** Asks one batch of statuses and records each entry; returns the failure when no answer could be read. */
  async function askStatuses(ids: string[], answered: Map<string, SmmStatusEntry>): Promise<SmmProviderError | null> {
    let answer: Record<string, unknown>;
    try {
      const body = await call('status', { orders: ids.join(',') });
      if (!isRecord(body)) throw garbage('status', `expected an object keyed by order id, got ${excerpt(JSON.stringify(body))}`);
      answer = body;
    } catch (error) {
      if (error instanceof SmmProviderError) return error;
      throw error;
    }
    // Asked about one order, some panels answer in the single-order shape instead of keying it by id.
    const entries = ids.length === 1 && !(ids[0] in answer) && 'status' in answer ? [[ids[0], answer] as const] : Object.entries(answer);
    for (const [orderId, value] of entries) {
      const refusal = errorMessage(value);
      answered.set(
        orderId,
        refusal !== null
          ? { ok: false, error: refusal }
          : isRecord(value)
            ? { ok: true, ...readOrderState(value) }
            : { ok: false, error: `Unreadable entry: ${excerpt(JSON.stringify(value) ?? String(value))}` },
      );
    }
    return null;
  }

  function markUnanswered(ids: string[], failure: SmmProviderError, answered: Map<string, SmmStatusEntry>): void {
    for (const orderId of ids) answered.set(orderId, { ok: false, error: failure.message, unanswered: true });
  }

  /**
   * A batch got no readable answer. Panels that choke on one order fail the whole batch, so each
   * half is asked again and a half that fails alone is split further: one bad order costs only
   * itself. Returns whether the panel itself is failing: both halves failed, it timed out (each
   * retry would cost a whole timeout), or it refused the call as such.
   */
  async function isolateFailure(ids: string[], failure: SmmProviderError, answered: Map<string, SmmStatusEntry>): Promise<boolean> {
    const timedOut = failure.cause instanceof TransportFailure && failure.cause.reason === 'timeout';
    if (ids.length === 1 || failure.kind !== 'unavailable' || timedOut) {
      markUnanswered(ids, failure, answered);
      return ids.length > 1 || timedOut;
    }
    const halves = [ids.slice(0, Math.ceil(ids.length / 2)), ids.slice(Math.ceil(ids.length / 2))];
    const failures = [await askStatuses(halves[0], answered), await askStatuses(halves[1], answered)];
    if (failures[0] !== null && failures[1] !== null) {
      markUnanswered(ids, failures[1], answered);
      return true;
    }
    for (const [index, half] of halves.entries()) {
      const halfFailure = failures[index];
      // The other half was answered, so the panel works: whatever this half does, it is about its orders.
      if (halfFailure !== null) await isolateFailure(half, halfFailure, answered);
    }
    return false;
  }

  return {
    async services() {
      const answer = await call('services');
      if (!Array.isArray(answer)) throw garbage('services', `expected a list, got ${excerpt(JSON.stringify(answer))}`);
      const catalogue: SmmServiceCatalogue = { services: [], unreadable: [] };
      for (const entry of answer) {
        try {
          catalogue.services.push(readService(entry));
        } catch (error) {
          catalogue.unreadable.push({ entry, reason: error instanceof Error ? error.message : String(error) });
        }
      }
      return catalogue;
    },

    async add(input) {
      const answer = await call('add', {
        service: input.service,
        link: input.link,
        quantity: input.quantity,
        runs: input.runs,
        interval: input.interval,
        comments: listField(input.comments),
        usernames: listField(input.usernames),
        hashtags: listField(input.hashtags),
        hashtag: input.hashtag,
        username: input.username,
        media: input.media,
        answer_number: input.answerNumber,
        min: input.min,
        max: input.max,
        posts: input.posts,
        old_posts: input.oldPosts,
        delay: input.delay,
        expiry: input.expiry,
      });
      const orderId = isRecord(answer) ? readId(answer.order) : null;
      // Without an order id we cannot tell whether the order exists: unknown, not refused.
      if (orderId === null) throw garbage('add', `answer has no order id: ${excerpt(JSON.stringify(answer))}`);
      return { orderId };
    },

    async status(orderId) {
      const answer = await call('status', { order: orderId });
      if (!isRecord(answer)) throw garbage('status', `expected an object, got ${excerpt(JSON.stringify(answer))}`);
      return readOrderState(answer);
    },

    async statuses(orderIds) {
      const wanted = uniqueIds(orderIds);
      const answered = new Map<string, SmmStatusEntry>();
      let panelFailure: SmmProviderError | null = null;
      for (const chunk of batches(wanted)) {
        // Once the panel fails as a whole, asking it the rest would only cost more timeouts.
        if (panelFailure !== null) {
          markUnanswered(chunk, panelFailure, answered);
          continue;
        }
        const failure = await askStatuses(chunk, answered);
        if (failure !== null && (await isolateFailure(chunk, failure, answered))) panelFailure = failure;
      }
      return new Map(wanted.map((id) => [id, answered.get(id) ?? { ok: false, error: MISSING_FROM_ANSWER }]));
    },

    async balance() {
      const answer = await call('balance');
      if (!isRecord(answer) || answer.balance === undefined) throw garbage('balance', `no balance in ${excerpt(JSON.stringify(answer))}`);
      return {
        balanceMicros: readMoney('balance', answer.balance, 'balance'),
        currency: typeof answer.currency === 'string' ? answer.currency.trim().toUpperCase() : '',
      };
    },

    async refill(orderId) {
      const answer = await call('refill', { order: orderId });
      const refillId = isRecord(answer) ? readId(answer.refill) : null;
      if (refillId === null) throw garbage('refill', `answer has no refill id: ${excerpt(JSON.stringify(answer))}`);
      return { refillId };
    },

    refills(orderIds) {
      return batch(
        'refill',
        'orders',
        orderIds,
        readPerOrderList('refill', 'refill', (value) => {
          const refillId = readId(value);
          if (refillId === null) throw garbage('refill', `entry has no refill id: ${JSON.stringify(value)}`);
          return { refillId };
        }),
      );
    },

    async refillStatus(refillId) {
      const answer = await call('refill_status', { refill: refillId });
      if (!isRecord(answer)) throw garbage('refill_status', `expected an object, got ${excerpt(JSON.stringify(answer))}`);
      return readRefillStatus('refill_status', answer.status);
    },

    refillStatuses(refillIds) {
      return batch<{ status: SmmRefillStatus }>('refill_status', 'refills', refillIds, (answer, results) => {
        const record = (refillId: string, value: unknown) => {
          const refusal = errorMessage(value);
          results.set(refillId, refusal !== null ? { ok: false, error: refusal } : { ok: true, status: readRefillStatus('refill_status', value) });
        };
        // Panels answer either [{refill, status}] or {"<refill id>": {status} | "<status>"}.
        if (Array.isArray(answer)) {
          for (const item of answer) {
            const refillId = isRecord(item) ? readId(item.refill) : null;
            if (refillId === null || !isRecord(item)) throw garbage('refill_status', `list entry without a refill id: ${JSON.stringify(item)}`);
            record(refillId, errorMessage(item) !== null ? item : item.status);
          }
        } else if (isRecord(answer)) {
          for (const [refillId, value] of Object.entries(answer)) {
            record(refillId, isRecord(value) && errorMessage(value) === null ? value.status : value);
          }
        } else {
          throw garbage('refill_status', `unexpected answer ${excerpt(JSON.stringify(answer))}`);
        }
      });
    },

    cancel(orderIds) {
      return batch(
        'cancel',
        'orders',
        orderIds,
        readPerOrderList('cancel', 'cancel', () => ({})),
      );
    },
  };
}
