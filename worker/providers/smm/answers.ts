// Reading the panels' answers: ids, money, counts, flags, catalogue entries and per-order lists,
// each read defensively because panels differ in what they send. An answer that cannot be read is
// 'unavailable' (garbage), not 'rejected': the panel did not refuse, so what it did stays unknown.
// A catalogue entry that cannot be read throws a plain Error, so the catalogue sets it aside alone.

import { parseDecimal } from '../../lib/decimal';
import { excerpt, isRecord } from '../http';
import { statusKey } from './order-state';
import { PROVIDER_MONEY_SCALE, type SmmItemResult, SmmProviderError, type SmmRefillStatus, type SmmService } from './types';

/** An answer the panel gave but we cannot read. */
export function garbage(action: string, message: string, cause?: unknown): SmmProviderError {
  return new SmmProviderError(action, 'unavailable', `SMM provider ${action}: ${message}`, null, { cause });
}

/** Ids arrive as numbers or strings; both become strings. */
export function readId(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

/** The message of an {"error": ...} object, or null when the value is not one. */
export function errorMessage(value: unknown): string | null {
  if (!isRecord(value) || value.error === undefined || value.error === null || value.error === false) return null;
  return typeof value.error === 'string' ? value.error : JSON.stringify(value.error);
}

const REFILL_STATUS_BY_KEY = new Map<string, SmmRefillStatus>([
  ['pending', 'Pending'],
  ['inprogress', 'In progress'],
  ['processing', 'In progress'],
  ['completed', 'Completed'],
  ['complete', 'Completed'],
  ['rejected', 'Rejected'],
  ['canceled', 'Canceled'],
  ['cancelled', 'Canceled'],
]);

export function readMoney(action: string, value: unknown, field: string): bigint {
  if (value === undefined || value === null || value === '') return 0n;
  if (typeof value !== 'string' && typeof value !== 'number') throw garbage(action, `${field} is not a number: ${JSON.stringify(value)}`);
  try {
    return parseDecimal(value, PROVIDER_MONEY_SCALE);
  } catch (error) {
    throw garbage(action, `${field} is not a number: ${JSON.stringify(value)}`, error);
  }
}

/** Whole counts of the catalogue (min, max); null when the panel left the field out or empty. */
export function readCount(action: string, value: unknown, field: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number') throw garbage(action, `${field} is not a number: ${JSON.stringify(value)}`);
  try {
    return Number(parseDecimal(value, 0));
  } catch (error) {
    throw garbage(action, `${field} is not a number: ${JSON.stringify(value)}`, error);
  }
}

export function readFlag(value: unknown): boolean {
  if (typeof value === 'string') return ['1', 'true', 'yes'].includes(value.trim().toLowerCase());
  return value === true || value === 1;
}

export function readRefillStatus(action: string, value: unknown): SmmRefillStatus {
  const status = REFILL_STATUS_BY_KEY.get(statusKey(value));
  if (!status) throw garbage(action, `unknown refill status ${JSON.stringify(value)}`);
  return status;
}

export function readService(entry: unknown): SmmService {
  if (!isRecord(entry)) throw new Error('not an object');
  const id = readId(entry.service);
  if (id === null) throw new Error('no service id');
  if (typeof entry.name !== 'string' || entry.name.trim() === '') throw new Error('no name');
  if (typeof entry.rate !== 'string' && typeof entry.rate !== 'number') throw new Error('no rate');
  const ratePer1000Micros = parseDecimal(entry.rate, PROVIDER_MONEY_SCALE);
  if (ratePer1000Micros < 0n) throw new Error('negative rate');
  const min = readCount('services', entry.min, 'min');
  const max = readCount('services', entry.max, 'max');
  if (min === null || max === null || min < 0 || max < min) throw new Error(`bad quantity range ${entry.min}..${entry.max}`);
  return {
    id,
    name: entry.name.trim(),
    type: typeof entry.type === 'string' && entry.type.trim() !== '' ? entry.type.trim() : 'Default',
    category: typeof entry.category === 'string' ? entry.category.trim() : '',
    ratePer1000Micros,
    min,
    max,
    refill: readFlag(entry.refill),
    cancel: readFlag(entry.cancel),
    dripfeed: readFlag(entry.dripfeed),
  };
}

/** Reads [{order, <field>: value | {error}}] answers, as `refill` and `cancel` give for many orders. */
export function readPerOrderList<T>(action: string, field: string, readValue: (value: unknown) => T) {
  return (answer: unknown, results: Map<string, SmmItemResult<T>>): void => {
    if (!Array.isArray(answer)) throw garbage(action, `expected a list, got ${excerpt(JSON.stringify(answer))}`);
    for (const item of answer) {
      const orderId = isRecord(item) ? readId(item.order) : null;
      if (orderId === null || !isRecord(item)) throw garbage(action, `list entry without an order id: ${JSON.stringify(item)}`);
      const refusal = errorMessage(item[field]) ?? errorMessage(item);
      results.set(orderId, refusal !== null ? { ok: false, error: refusal } : { ok: true, ...readValue(item[field]) });
    }
  };
}
