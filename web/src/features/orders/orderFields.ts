// Which fields each service type needs (the common SMM-panel API types), the form's schema for a
// chosen service, and turning form values into the POST user/orders body.

import { LINK_INVALID, LINK_REQUIRED, LINK_TOO_LONG, MAX_RUNS, QUANTITY_INVALID, USERNAME_INVALID } from '@schemas/order-constants';
import type { CreateOrderInput } from '@schemas/orders';
import { z } from '@schemas/zod';
import { chargeKobo, type Service } from '@/api/catalogue';
import { type ExtraField, typeSpec } from '@/lib/serviceTypes';

/** What the link field asks for: a URL, an account for services sold by username, or a subscription's optional profile link. */
export function linkFieldText(service: Service): { label: string; placeholder: string; hint?: string; byUsername: boolean } {
  if (typeSpec(service.type).quantity === 'subscription') {
    return { label: 'Profile link (optional)', placeholder: 'https://www.instagram.com/yourprofile', hint: 'Leave empty to use @username.', byUsername: false };
  }
  if (service.linkKind === 'username') {
    return {
      label: 'Username or profile link',
      placeholder: '@username or profile link',
      hint: "The account's username, with or without @, or a link to its profile.",
      byUsername: true,
    };
  }
  return { label: 'Link', placeholder: 'https://www.instagram.com/yourprofile', byUsername: false };
}

/** Drip-feed applies to services ordered by quantity that offer it. */
export const canDripFeed = (service: Service) => Boolean(service.dripfeed) && typeSpec(service.type).quantity === 'input';

export const FIELD_LABELS: Record<ExtraField, { label: string; hint?: string; multiline?: boolean; numeric?: boolean; placeholder?: string }> = {
  comments: { label: 'Comments', hint: 'One comment per line. Each line counts as one.', multiline: true },
  username: { label: 'Username', placeholder: 'username (without @)' },
  usernames: { label: 'Usernames', hint: 'One username per line.', multiline: true },
  hashtags: { label: 'Hashtags', hint: 'One hashtag per line.', multiline: true },
  hashtag: { label: 'Hashtag', placeholder: '#hashtag' },
  media: { label: 'Media URL', placeholder: 'https://' },
  answerNumber: { label: 'Answer number', numeric: true, placeholder: '1' },
  min: { label: 'Minimum per post', numeric: true },
  max: { label: 'Maximum per post', numeric: true },
  posts: { label: 'Number of future posts', numeric: true, hint: 'You pay for the maximum on every post up front.' },
  delay: { label: 'Delay after a new post' },
  expiry: { label: 'Expiry date (optional)', numeric: true, placeholder: 'dd/mm/yyyy' },
};

/**
 * The expiry date as typed on a phone's number pad, which has no "/": the digits, at most eight, with the
 * slashes put in as they are reached ("1205" -> "12/05", "12052027" -> "12/05/2027").
 */
export function expiryAsTyped(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join('/');
}

/** Form values are the inputs' text. */
export interface OrderFormValues {
  link: string;
  quantity: string;
  comments: string;
  username: string;
  usernames: string;
  hashtags: string;
  hashtag: string;
  media: string;
  answerNumber: string;
  min: string;
  max: string;
  posts: string;
  delay: string;
  expiry: string;
  dripfeed: boolean;
  runs: string;
  interval: string;
}

export const EMPTY_ORDER_FORM: OrderFormValues = {
  link: '',
  quantity: '',
  comments: '',
  username: '',
  usernames: '',
  hashtags: '',
  hashtag: '',
  media: '',
  answerNumber: '',
  min: '',
  max: '',
  posts: '',
  // A subscription starts on each new post unless the customer picks a delay: "No delay" is chosen until then.
  delay: '0',
  expiry: '',
  dripfeed: false,
  runs: '',
  interval: '',
};

export const countLines = (text: string) => text.split(/\r?\n/).filter((l) => l.trim() !== '').length;
const int = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** The form's quantity (NaN when not readable yet): input, line count, one package, or the subscription max. */
export function quantityOf(service: Service, v: Pick<OrderFormValues, 'quantity' | 'comments' | 'usernames' | 'max'>): number {
  const spec = typeSpec(service.type);
  if (spec.quantity === 'comments' || spec.quantity === 'usernames') return countLines(v[spec.quantity]);
  if (spec.quantity === 'subscription') return int(v.max);
  if (spec.quantity === 'package') return 1;
  return int(v.quantity);
}

/**
 * What the order delivers and costs, as the Worker prices it: ceil(rateKobo × units / 1000), the
 * units being the quantity (× runs with drip-feed), 1000 for the one package, or a subscription's max × posts.
 */
export function orderTotals(service: Service, v: OrderFormValues): { quantity: number; totalQuantity: number; chargeKobo: bigint } {
  const spec = typeSpec(service.type);
  const quantity = quantityOf(service, v);
  let totalQuantity = quantity;
  let billed = quantity;
  if (spec.quantity === 'subscription') {
    totalQuantity = quantity * int(v.posts);
    billed = totalQuantity;
  } else if (spec.quantity === 'package') {
    billed = quantity * 1000;
  } else if (canDripFeed(service) && v.dripfeed) {
    totalQuantity = quantity * int(v.runs);
    billed = totalQuantity;
  }
  return { quantity, totalQuantity, chargeKobo: Number.isFinite(billed) ? chargeKobo(service.rateKobo, billed) : 0n };
}

/**
 * What a mass-order line costs, as the Worker counts a batch's total (massLineChargeKobo in
 * worker/services/orders/order-plan.ts): the quantity at the rate per 1000, or one package's rate. Null
 * for a type whose fields a line cannot give: such a line is refused, so it adds nothing.
 */
export function massLineChargeKobo(service: Service, quantity: number): bigint | null {
  const spec = typeSpec(service.type);
  if (spec.extras.length > 0) return null;
  return chargeKobo(service.rateKobo, spec.quantity === 'package' ? 1000 : quantity);
}

/** Why a line cannot be ordered by a mass order: its type needs fields only the New order form has. */
export const NEEDS_ORDER_FORM = 'This service needs more details than a line can give: order it on the New order tab';
/** The Worker's refusal of a package line with another quantity than 1 (planOrder). */
export const ONE_PACKAGE = 'This service is sold by the package: each order is one package, so leave the quantity out or send 1';

/** A username as the Worker reads one (accountLink in worker/services/catalogue/link-kinds.ts). */
const USERNAME = /^@?([\p{L}\p{N}_.-]{1,100})$/u;
/** Apps' own addresses the Worker reads as web links (appUriLink). */
const APP_URI = /^spotify:(artist|track|album|playlist|user|show|episode):([A-Za-z0-9._-]{1,100})$/i;

/**
 * The Worker's refusal of a line's link that the page can tell already (checkLink in
 * worker/services/orders/order-plan.ts): no link, a username that is none, or text that is no web
 * address. Never stricter than the Worker: the platform's hosts are left to it.
 */
export function linkProblem(service: Pick<Service, 'linkKind'>, typed: string): string | null {
  const text = typed.trim();
  if (!text) return LINK_REQUIRED;
  if (APP_URI.test(text)) return null;
  const byUsername = service.linkKind === 'username';
  if (byUsername && !/[/:]/.test(text)) {
    const name = USERNAME.exec(text)?.[1];
    return !name || /^\.+$/.test(name) ? USERNAME_INVALID : null;
  }
  const link = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL | null = null;
  try {
    url = new URL(link);
  } catch {
    url = null;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname.includes('.')) return byUsername ? USERNAME_INVALID : LINK_INVALID;
  return null;
}

/**
 * Why the Worker would refuse a mass-order line (service, link, quantity) for this service, in the
 * order it checks (planOrder): a type a line cannot give the fields of, the link, then the quantity
 * (one package, or within the service's min and max). Null when the line can be placed.
 */
export function massLineProblem(service: Service, line: { link: string; quantity: number }): string | null {
  const spec = typeSpec(service.type);
  if (spec.extras.length > 0 || (spec.quantity !== 'input' && spec.quantity !== 'package')) return NEEDS_ORDER_FORM;
  const link = linkProblem(service, line.link);
  if (link) return link;
  if (spec.quantity === 'package') return line.quantity === 1 ? null : ONE_PACKAGE;
  const min = Number(service.min);
  const max = Number(service.max);
  if (line.quantity < min) return `Minimum quantity is ${min.toLocaleString('en-US')}`;
  if (line.quantity > max) return `Maximum quantity is ${max.toLocaleString('en-US')}`;
  return null;
}

/** The form's schema for one service (its min/max, its type's fields). */
export function orderFormSchema(service: Service) {
  const spec = typeSpec(service.type);
  const min = Number(service.min) || 1;
  const max = Number(service.max) || Number.MAX_SAFE_INTEGER;
  const text = z.string();
  return z
    .object({
      link: text,
      quantity: text,
      comments: text,
      username: text,
      usernames: text,
      hashtags: text,
      hashtag: text,
      media: text,
      answerNumber: text,
      min: text,
      max: text,
      posts: text,
      delay: text,
      expiry: text,
      dripfeed: z.boolean(),
      runs: text,
      interval: text,
    })
    .superRefine((v, ctx) => {
      const issue = (path: keyof OrderFormValues, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      const inRange = (path: keyof OrderFormValues, n: number, what = 'quantity') => {
        if (n < min) issue(path, `Minimum ${what} is ${min.toLocaleString('en-US')}`);
        else if (n > max) issue(path, `Maximum ${what} is ${max.toLocaleString('en-US')}`);
      };
      const link = v.link.trim();
      if (!link && spec.quantity !== 'subscription') issue('link', LINK_REQUIRED);
      else if (link.length > 2048) issue('link', LINK_TOO_LONG);

      for (const f of spec.extras) {
        if (f === 'min' || f === 'max' || f === 'posts' || f === 'delay' || f === 'expiry') continue; // subscription checks below
        if (f === spec.quantity) continue; // the line count is checked as the quantity
        if (!v[f].trim()) issue(f, `${FIELD_LABELS[f].label} is required`);
        else if (f === 'answerNumber' && !/^\d{1,9}$/.test(v[f].trim())) issue(f, 'Answer number must be a whole number');
      }

      if (spec.quantity === 'subscription') {
        const lo = int(v.min);
        const hi = int(v.max);
        if (!Number.isFinite(lo)) issue('min', 'min is required for subscriptions');
        else inRange('min', lo, 'per post');
        if (!Number.isFinite(hi)) issue('max', 'max is required for subscriptions');
        else inRange('max', hi, 'per post');
        if (Number.isFinite(lo) && Number.isFinite(hi) && lo > hi) issue('min', 'min cannot be more than max');
        const posts = int(v.posts);
        if (!Number.isFinite(posts) || posts < 1) issue('posts', 'posts is required for subscriptions (how many future posts)');
        if (v.expiry.trim() && !/^\d{2}\/\d{2}\/\d{4}$/.test(v.expiry.trim())) issue('expiry', 'expiry must be a date as dd/mm/yyyy');
      } else if (spec.quantity !== 'package') {
        const field: keyof OrderFormValues = spec.quantity === 'comments' || spec.quantity === 'usernames' ? spec.quantity : 'quantity';
        const q = quantityOf(service, v);
        if (!Number.isFinite(q) || q <= 0) {
          issue(field, field === 'quantity' ? QUANTITY_INVALID : `${FIELD_LABELS[field as ExtraField].label} is required`);
        } else {
          inRange(field, q);
        }
      }

      if (canDripFeed(service) && v.dripfeed) {
        const runs = int(v.runs);
        const interval = int(v.interval);
        if (!Number.isFinite(runs) || runs < 1) issue('runs', 'Runs must be at least 1');
        else if (runs > MAX_RUNS) issue('runs', `Runs must be at most ${MAX_RUNS}`);
        if (!Number.isFinite(interval) || interval < 1) issue('interval', 'Interval must be at least 1 minute');
        else if (interval > 10_080) issue('interval', 'Interval must be at most 10080 minutes');
      }
    });
}

/** The POST user/orders body for valid form values. */
export function toOrderBody(service: Service, v: OrderFormValues): CreateOrderInput {
  const spec = typeSpec(service.type);
  const body: CreateOrderInput = { serviceId: service.id };
  const link = v.link.trim();
  if (link) body.link = link;
  if (spec.quantity !== 'subscription') body.quantity = quantityOf(service, v);
  for (const f of spec.extras) {
    const value = v[f].trim();
    if (f === 'delay') {
      body.delay = Number.isFinite(int(value)) ? int(value) : 0;
      continue;
    }
    if (!value) continue;
    if (f === 'min' || f === 'max' || f === 'posts') body[f] = int(value);
    else body[f] = value;
  }
  if (canDripFeed(service) && v.dripfeed) {
    body.runs = int(v.runs);
    body.interval = int(v.interval);
  }
  return body;
}
