// The ways real SMM panels misbehave, as switches on the fake panel. Each switch applies to a
// share of calls (or of order entries in a status answer), drawn from a seeded random source so a
// test can replay it, and/or to given panel order ids, and/or to the next n eligible calls.
// The "rough" preset turns on a realistic mix at low rates: what `SMM_FAKE=rough npm start` shows.

/** Every switch, with what it does. */
export const FAULTS = {
  html200: 'answers an HTML error page with status 200; nothing happens',
  badGateway: 'answers an HTML 502 page; nothing happens',
  slow: 'answers after `delayMs` (past the client timeout, it is a timeout)',
  acceptThenTimeout: '`add` creates and charges the order, and answers only after `delayMs` (2 minutes by default)',
  duplicateOrderId: '`add` creates the order but answers the id of the order created before it',
  refillRefusal: 'refuses a refill for the order',
  cancelRefusal: 'refuses to cancel the order',
  variantWord: 'reports the status in another spelling of the same meaning (Cancelled, Fail, partial, In Progress, ...)',
  unknownWord: 'reports a status word no list has',
  missingRemains: 'leaves `remains` out',
  textRemains: 'sends `remains` as text that is no number',
  negativeRemains: 'reports a completed order over-delivered (negative `remains`)',
  foreignCharge: 'reports `charge` in EUR',
  noCharge: 'leaves `charge` out',
} as const;
export type FaultName = keyof typeof FAULTS;

export interface FaultSwitch {
  /** Share of eligible calls or order entries hit, 0..1. */
  rate?: number;
  /** Panel order ids always hit. */
  orders?: number[];
  /** Hits the next n eligible calls or entries, then stops. */
  times?: number;
  /** API actions a switch applies to; all when absent. */
  actions?: string[];
  /** For slow and acceptThenTimeout. */
  delayMs?: number;
}

export type FaultSwitches = Partial<Record<FaultName, FaultSwitch>>;

export type FaultPreset = 'calm' | 'rough';

export const PRESETS: Record<FaultPreset, FaultSwitches> = {
  calm: {},
  rough: {
    html200: { rate: 0.02 },
    badGateway: { rate: 0.02 },
    slow: { rate: 0.03, delayMs: 800 },
    acceptThenTimeout: { rate: 0.01, actions: ['add'] },
    duplicateOrderId: { rate: 0.005 },
    refillRefusal: { rate: 0.1 },
    cancelRefusal: { rate: 0.1 },
    variantWord: { rate: 0.2 },
    unknownWord: { rate: 0.03 },
    missingRemains: { rate: 0.05 },
    textRemains: { rate: 0.03 },
    negativeRemains: { rate: 0.2 },
    foreignCharge: { rate: 0.05 },
    noCharge: { rate: 0.05 },
  },
};

/** Same meaning, other spelling, as panels write them. */
const VARIANT_WORDS: Record<string, string[]> = {
  Pending: ['pending', 'PENDING', 'Queued', 'In queue'],
  'In progress': ['In Progress', 'inprogress', 'in_progress', 'Processing', 'IN PROGRESS'],
  Active: ['active', 'ACTIVE', 'Paused'],
  Completed: ['completed', 'Complete', 'COMPLETED'],
  Expired: ['expired', 'EXPIRED'],
  Partial: ['partial', 'PARTIAL', 'Partially Completed'],
  Canceled: ['Cancelled', 'canceled', 'CANCELED', 'Refunded', 'Fail', 'Failed', 'Error'],
};
const UNKNOWN_WORDS = ['Fail?', 'Exploded', 'Stopped', 'Unknown', 'On hold', '4', ''];
const TEXT_REMAINS = ['N/A', '12 left', '-', '1,000', 'null'];
/** What the panel's EUR charges are worth against its USD prices, in millionths. */
const EUR_PER_USD_MILLIONTHS = 921_538n;

/** What garbling one order's status answer needs to know of the order and the panel's number format. */
interface StatusContext {
  orderId: number;
  quantity: number;
  count: (value: number) => string | number;
  money: (micros: bigint) => string | number;
  /** The order's charge in micro-USD; null keeps the answer's charge as it is. */
  chargeMicros: bigint | null;
}

/** mulberry32: a small seeded generator, so a seed replays the same faults for the same calls. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class Faults {
  switches: FaultSwitches;
  seed: number;
  random: () => number;

  constructor(preset: FaultPreset, seed: number) {
    this.switches = structuredClone(PRESETS[preset]);
    this.seed = seed;
    this.random = seededRandom(seed);
  }

  /** Whether a switch applies to this call (or this order's entry); draws from the random source only for a rate. */
  hits(name: FaultName, action: string, orderIds: readonly number[] = []): boolean {
    const rule = this.switches[name];
    if (!rule || (rule.actions && !rule.actions.includes(action))) return false;
    if (rule.orders?.some((id) => orderIds.includes(id))) return true;
    if (rule.times !== undefined && rule.times > 0) {
      rule.times -= 1;
      return true;
    }
    return rule.rate !== undefined && rule.rate > 0 && this.random() < rule.rate;
  }

  delayOf(name: 'slow' | 'acceptThenTimeout'): number {
    return this.switches[name]?.delayMs ?? (name === 'slow' ? 3000 : 120_000);
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  /** Applies the per-order switches to one status answer. */
  garbleStatus(answer: Record<string, unknown>, order: StatusContext): Record<string, unknown> {
    const hit = (name: FaultName) => this.hits(name, 'status', [order.orderId]);
    const word = String(answer.status);
    if (VARIANT_WORDS[word] && hit('variantWord')) answer.status = this.pick(VARIANT_WORDS[word]);
    else if (hit('unknownWord')) answer.status = this.pick(UNKNOWN_WORDS);
    if ('remains' in answer) {
      if (hit('missingRemains')) delete answer.remains;
      else if (hit('textRemains')) answer.remains = this.pick(TEXT_REMAINS);
      else if (word === 'Completed' && hit('negativeRemains')) answer.remains = order.count(-1 - Math.floor(order.quantity * this.random() * 0.1));
    }
    if (hit('noCharge')) {
      delete answer.charge;
    } else if (order.chargeMicros !== null && hit('foreignCharge')) {
      answer.charge = order.money((order.chargeMicros * EUR_PER_USD_MILLIONTHS) / 1_000_000n);
      answer.currency = 'EUR';
    }
    return answer;
  }

  /** Applies a /__control body: `preset` replaces every switch, `faults` sets (or with null, removes) some, `seed` restarts the random source. */
  control(fields: Record<string, unknown>): string | null {
    if (fields.preset !== undefined) {
      if (typeof fields.preset !== 'string' || !Object.hasOwn(PRESETS, fields.preset)) return `preset must be one of ${Object.keys(PRESETS).join(', ')}`;
      this.switches = structuredClone(PRESETS[fields.preset as FaultPreset]);
    }
    if (fields.faults !== undefined) {
      if (typeof fields.faults !== 'object' || fields.faults === null) return 'faults must be an object of switches';
      for (const [name, rule] of Object.entries(fields.faults)) {
        if (!Object.hasOwn(FAULTS, name)) return `no fault called ${name}; known: ${Object.keys(FAULTS).join(', ')}`;
        if (rule === null) delete this.switches[name as FaultName];
        else if (typeof rule === 'object') this.switches[name as FaultName] = rule as FaultSwitch;
        else return `faults.${name} must be an object or null`;
      }
    }
    if (typeof fields.seed === 'number') {
      this.seed = fields.seed;
      this.random = seededRandom(fields.seed);
    }
    return null;
  }
}
