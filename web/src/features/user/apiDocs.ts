// What the API page documents, in the layout SMM panels use for their API v2 pages: per action,
// its parameters and an example answer. Limits, delays and refusal words come from the Worker's schemas
// (@schemas/reseller-api, @schemas/orders), so the page and the API cannot drift apart on them.
// The webhook part says what worker/services/reseller/webhook-deliveries.ts and providers/webhook-post.ts do;
// its signature recipe is exported, so a Worker test can check that a receiver following it accepts our deliveries.
import { SUBSCRIPTION_DELAYS } from '@schemas/order-constants';
import { PANEL_ERRORS, RESELLER_BATCH_LIMIT } from '@schemas/reseller-api';
import { MAX_WEBHOOKS_PER_USER, WEBHOOK_TEST_EVENT, type WebhookEvent } from '@vocabulary';
import type { ApiLimits } from './api/get-api-keys';

export interface DocParam {
  name: string;
  description: string;
}

export interface ActionDoc {
  id: string;
  title: string;
  params: DocParam[];
  example: unknown;
}

const key: DocParam = { name: 'key', description: 'Your API key' };
const action = (name: string): DocParam => ({ name: 'action', description: name });
const idList = (what: string) => `${what} IDs separated by commas (up to ${RESELLER_BATCH_LIMIT})`;

const link: DocParam = { name: 'link', description: 'Link to the page or post' };
const quantity: DocParam = { name: 'quantity', description: 'Needed quantity' };
const runs: DocParam = { name: 'runs (optional)', description: 'Drip-feed: how many times to deliver the quantity' };
const interval: DocParam = { name: 'interval (optional)', description: 'Drip-feed: minutes between runs' };
const comments: DocParam = { name: 'comments', description: 'Comments, one per line' };
const usernames: DocParam = { name: 'usernames', description: 'Usernames, one per line' };
const username: DocParam = { name: 'username', description: 'Username' };

/** The `add` fields per service type (the `type` in the service list). */
export const ORDER_TYPES: ReadonlyArray<{ type: string; params: DocParam[] }> = [
  { type: 'Default', params: [link, quantity, runs, interval] },
  { type: 'Package', params: [link] },
  { type: 'Custom Comments', params: [link, comments] },
  { type: 'Custom Comments Package', params: [link, comments] },
  { type: 'Mentions with Hashtags', params: [link, quantity, usernames, { name: 'hashtags', description: 'Hashtags, one per line' }] },
  { type: 'Mentions Custom List', params: [link, usernames] },
  { type: 'Mentions Hashtag', params: [link, quantity, { name: 'hashtag', description: 'Hashtag to scrape usernames from' }] },
  { type: 'Mentions User Followers', params: [link, quantity, { name: 'username', description: 'URL or username whose followers are mentioned' }] },
  { type: 'Mentions Media Likers', params: [link, quantity, { name: 'media', description: 'Media URL to scrape likers from' }] },
  {
    type: 'Subscriptions',
    params: [
      username,
      { name: 'min', description: 'Quantity per post, at least' },
      { name: 'max', description: 'Quantity per post, at most' },
      {
        name: 'posts (optional)',
        description: 'How many new posts to cover (charged up front: max × posts; 10 when left out, and what is not delivered is refunded)',
      },
      { name: 'old_posts (optional)', description: 'How many existing posts to cover too (charged like new ones)' },
      { name: 'delay', description: `Minutes to wait after a post: ${SUBSCRIPTION_DELAYS.slice(0, -1).join(', ')} or ${SUBSCRIPTION_DELAYS.at(-1)}` },
      { name: 'expiry (optional)', description: 'Last day, as dd/mm/yyyy' },
    ],
  },
  { type: 'Poll', params: [link, quantity, { name: 'answer_number', description: 'Number of the answer to vote for' }] },
  { type: 'Comment Likes', params: [link, quantity, { name: 'username', description: "Username of the comment's author" }] },
  { type: 'Comment Replies', params: [link, { name: 'username', description: "Username of the comment's author" }, comments] },
];

const orderStatusExample = { charge: '2775.00', start_count: '3572', status: 'Partial', remains: '157', currency: 'NGN' };

export const ACTIONS: ReadonlyArray<ActionDoc> = [
  {
    id: 'services',
    title: 'Service list',
    params: [key, action('services')],
    example: [
      {
        service: 1,
        name: 'Instagram Followers [Refill 30D]',
        type: 'Default',
        category: 'Instagram Followers',
        rate: '3372.00',
        min: '100',
        max: '100000',
        refill: true,
        cancel: true,
        dripfeed: false,
      },
      {
        service: 2,
        name: 'Instagram Custom Comments',
        type: 'Custom Comments',
        category: 'Instagram Comments',
        rate: '15115.00',
        min: '5',
        max: '500',
        refill: false,
        cancel: true,
        dripfeed: false,
      },
    ],
  },
  {
    id: 'add',
    title: 'Add order',
    params: [
      key,
      action('add'),
      { name: 'service', description: 'Service ID' },
      { name: 'request_id (optional)', description: 'Your name for this request: sent again, it answers the first order instead of placing another' },
    ],
    example: { order: 23501 },
  },
  { id: 'status', title: 'Order status', params: [key, action('status'), { name: 'order', description: 'Order ID' }], example: orderStatusExample },
  {
    id: 'multi-status',
    title: 'Multiple orders status',
    params: [key, action('status'), { name: 'orders', description: idList('Order') }],
    example: {
      '1': orderStatusExample,
      '10': { error: PANEL_ERRORS.incorrectOrderId },
      '100': { charge: '1120.50', start_count: '1234', status: 'In progress', remains: '10', currency: 'NGN', request: 'Cancel requested' },
    },
  },
  { id: 'refill', title: 'Create refill', params: [key, action('refill'), { name: 'order', description: 'Order ID' }], example: { refill: '1' } },
  {
    id: 'multi-refill',
    title: 'Create multiple refill',
    params: [key, action('refill'), { name: 'orders', description: idList('Order') }],
    example: [
      { order: 1, refill: 1 },
      { order: 2, refill: 2 },
      { order: 3, refill: { error: PANEL_ERRORS.incorrectOrderId } },
    ],
  },
  {
    id: 'refill-status',
    title: 'Get refill status',
    params: [key, action('refill_status'), { name: 'refill', description: 'Refill ID' }],
    example: { status: 'Completed' },
  },
  {
    id: 'multi-refill-status',
    title: 'Get multiple refill status',
    params: [key, action('refill_status'), { name: 'refills', description: idList('Refill') }],
    example: [
      { refill: 1, status: 'Completed' },
      { refill: 2, status: 'Rejected' },
      { refill: 3, status: { error: PANEL_ERRORS.refillNotFound } },
    ],
  },
  {
    id: 'cancel',
    title: 'Create cancel',
    params: [key, action('cancel'), { name: 'orders', description: idList('Order') }],
    example: [
      { order: 9, cancel: { error: PANEL_ERRORS.incorrectOrderId } },
      { order: 2, cancel: 1 },
    ],
  },
  { id: 'balance', title: 'User balance', params: [key, action('balance')], example: { balance: '100840.50', currency: 'NGN' } },
];

/** Refusals reseller tools can act on, in the words they know. */
export const COMMON_ERRORS: ReadonlyArray<string> = [
  PANEL_ERRORS.invalidKey,
  PANEL_ERRORS.incorrectRequest,
  PANEL_ERRORS.incorrectServiceId,
  PANEL_ERRORS.incorrectOrderId,
  PANEL_ERRORS.incorrectLink,
  PANEL_ERRORS.incorrectQuantity,
  'Quantity less than minimal 100',
  'Quantity more than maximal 100000',
  PANEL_ERRORS.notEnoughFunds,
  PANEL_ERRORS.tooManyIds,
];

const count = (n: number) => n.toLocaleString('en-US');

/** The operator's limits per key and minute, as the documentation states them. */
export const rateLimitNote = ({ perMinute }: ApiLimits) =>
  `Each key may make, per minute: ${count(perMinute.add)} orders, refills and cancels together, ${count(perMinute.status)} status checks (status and refill_status), ${count(perMinute.services)} service lists and ${count(perMinute.balance)} balance checks.`;

/** What the documentation says about HTTP methods, as the shop takes them now. */
export const methodNote = ({ writesOverGet }: ApiLimits) =>
  writesOverGet
    ? 'POST (form fields, multipart or JSON), or GET with the fields in the query string. Prefer POST for add, refill and cancel: over GET the key rides in URLs that servers and proxies log.'
    : 'POST (form fields, multipart or JSON). GET with the fields in the query string works for services, status, refill_status and balance; add, refill and cancel over GET are refused with HTTP 405.';

export function curlExample(url: string): string {
  return [
    `curl -X POST '${url}' \\`,
    "  -H 'Idempotency-Key: 7f1c9a52-order-1' \\",
    '  -d key=YOUR_API_KEY \\',
    '  -d action=add \\',
    '  -d service=1 \\',
    "  -d link='https://instagram.com/p/abc123' \\",
    '  -d quantity=1000',
  ].join('\n');
}

export function phpExample(url: string): string {
  return `<?php
// One function for every action: POST the fields, read the JSON answer.
function smm_api(array $fields) {
    $ch = curl_init('${url}');
    curl_setopt_array($ch, [
        CURLOPT_POST => true,
        CURLOPT_POSTFIELDS => http_build_query(['key' => 'YOUR_API_KEY'] + $fields),
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_TIMEOUT => 30,
    ]);
    $answer = curl_exec($ch);
    curl_close($ch);
    return json_decode($answer, true);
}

$services = smm_api(['action' => 'services']);
$balance  = smm_api(['action' => 'balance']);

$order = smm_api(['action' => 'add', 'service' => 1, 'link' => 'https://instagram.com/p/abc123', 'quantity' => 1000]);
if (isset($order['error'])) {
    exit('Refused: ' . $order['error']);
}

$status   = smm_api(['action' => 'status', 'order' => $order['order']]);
$statuses = smm_api(['action' => 'status', 'orders' => '1,10,100']);
$refill   = smm_api(['action' => 'refill', 'order' => $order['order']]);
$cancel   = smm_api(['action' => 'cancel', 'orders' => $order['order']]);
`;
}

// ---------------------------------------------------------------- webhooks

/** One line per event a webhook can subscribe to, for the form's checkboxes. */
export const WEBHOOK_EVENT_SUMMARIES: Record<WebhookEvent, string> = {
  'order.status': "An order's status changes, with its charge, start count and remains",
  'refill.status': "A refill's status changes",
  'balance.low': 'Your balance falls below your low-balance alert',
};

export interface WebhookEventDoc {
  event: string;
  when: string;
  fields: DocParam[];
  example: unknown;
}

const money = (what: string) => `${what}, in NGN as text with two decimals`;

export const WEBHOOK_EVENT_DOCS: ReadonlyArray<WebhookEventDoc> = [
  {
    event: 'order.status',
    when: "An order's status changed. Each change is its own delivery, so two quick changes send two, each with the status it changed to; charge, start_count and remains are the order's figures when the delivery was prepared, and its retries repeat them.",
    fields: [
      { name: 'order', description: 'Order ID (a number)' },
      { name: 'charge', description: money('What the order costs you now, refunds taken off') },
      { name: 'start_count', description: 'Count when the order started, as text' },
      { name: 'status', description: 'The status the order changed to: Pending, In progress, Processing, Completed, Partial or Canceled' },
      { name: 'remains', description: 'Quantity still to deliver, as text' },
      { name: 'currency', description: 'NGN' },
    ],
    example: { order: 23501, charge: '2775.00', start_count: '3572', status: 'Completed', remains: '0', currency: 'NGN' },
  },
  {
    event: 'refill.status',
    when: "A refill's status changed.",
    fields: [
      { name: 'refill', description: 'Refill ID (a number)' },
      { name: 'order', description: 'ID of the order refilled' },
      { name: 'status', description: 'The status the refill changed to: Pending, In progress, Completed, Rejected or Canceled' },
    ],
    example: { refill: 812, order: 23501, status: 'Completed' },
  },
  {
    event: 'balance.low',
    when: 'Your balance fell below the low-balance alert you set under Settings: once per fall, not again until your balance is back up to the alert level.',
    fields: [
      { name: 'balance', description: money('Your balance') },
      { name: 'threshold', description: money('Your alert level') },
      { name: 'currency', description: 'NGN' },
    ],
    example: { balance: '1480.00', threshold: '2000.00', currency: 'NGN' },
  },
  {
    event: WEBHOOK_TEST_EVENT,
    when: 'You pressed Send test. No subscription asks for it; every endpoint can receive it.',
    fields: [{ name: 'message', description: 'A line of text saying it is a test' }],
    example: { message: 'A test from your SMM panel: your endpoint receives our webhooks.' },
  },
];

/** What a delivery's body looks like (one of the events above, as sent). */
export const webhookBodyExample = (doc: WebhookEventDoc) =>
  JSON.stringify({ event: doc.event, createdAt: '2024-03-05T10:00:00.000Z', data: doc.example }, null, 2);

export const WEBHOOK_SIGNATURE_MAX_AGE_SECONDS = 300;
export const WEBHOOK_ANSWER_SECONDS = 10;

/** The headers every delivery carries. */
export const WEBHOOK_HEADERS: ReadonlyArray<DocParam> = [
  { name: 'Content-Type', description: 'application/json' },
  { name: 'X-Webhook-Signature', description: 't=<unix seconds>,v1=<hex HMAC-SHA256>: when we signed, and the signature (see below)' },
  { name: 'X-Webhook-Event', description: 'The event, as in the body: order.status, refill.status, balance.low or webhook.test' },
  {
    name: 'X-Webhook-Delivery',
    description: 'The delivery ID: the same on every retry of one delivery. Keep the IDs you handled and drop a repeat.',
  },
];

/**
 * How a receiver checks that a delivery is ours and fresh, step by step: the page shows these steps, and a Worker
 * test follows them to verify real deliveries, so they must stay exact.
 */
export const webhookSignatureRecipe: ReadonlyArray<string> = [
  'Read the X-Webhook-Signature header, shaped t=<unix seconds>,v1=<hex>: split it at the commas, and each part at its first "=". t is when we signed, v1 the signature.',
  'Take the raw request body: the exact bytes we sent, before any JSON parsing. A body parsed and encoded again does not match.',
  'Compute HMAC-SHA256 with your signing secret as the key (the whole whsec_… text, as UTF-8) over the string <t>.<raw body>: t exactly as it appears in the header, a full stop, then the body.',
  'Write the result as lowercase hex and compare it with v1 in constant time (timingSafeEqual in Node.js, hash_equals in PHP). If they differ, refuse the delivery.',
  `Refuse it too if t is more than ${WEBHOOK_SIGNATURE_MAX_AGE_SECONDS / 60} minutes old: a replayed delivery carries an old t. Each try is signed afresh, so a retry carries a new t (and the same body and X-Webhook-Delivery).`,
];

/** What happens to a delivery the endpoint does not take, as webhook-deliveries.ts retries it. */
export const webhookRetryNote = `Answer with any 2xx status within ${WEBHOOK_ANSWER_SECONDS} seconds; what you answer in the body is ignored. Any other status (redirects are not followed), no answer in time, or no connection is a failed try: we try again after 30 seconds, then after twice as long each time, up to 2 hours apart, for 24 hours from the event. Then we give up, and the delivery log shows it as Failed.`;

export const webhookLimitsNote = `HTTPS addresses only; private, loopback and link-local addresses (such as 10.x, 192.168.x, 127.0.0.1 or localhost) are refused. Up to ${MAX_WEBHOOKS_PER_USER} webhooks per account; each gets every event it subscribes to.`;

export const webhookNodeExample = `import { createHmac, timingSafeEqual } from 'node:crypto';
import express from 'express';

// True when rawBody was signed with your secret less than 5 minutes ago.
function verifyWebhook(rawBody, signatureHeader, secret) {
  const parts = {};
  for (const part of String(signatureHeader ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) parts[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  const t = parts.t ?? '';
  if (!/^\\d+$/.test(t) || Date.now() / 1000 - Number(t) > ${WEBHOOK_SIGNATURE_MAX_AGE_SECONDS}) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\`).update(rawBody).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const app = express();
const handled = new Set(); // delivery IDs already handled: keep them in your database
// express.raw keeps the body as the bytes we sent: verify those, then parse.
app.post('/smm-webhook', express.raw({ type: 'application/json' }), (req, res) => {
  if (!verifyWebhook(req.body, req.get('X-Webhook-Signature'), process.env.WEBHOOK_SECRET)) return res.sendStatus(400);
  // A retry of a delivery you already handled carries the same X-Webhook-Delivery: answer it, do nothing again.
  const delivery = req.get('X-Webhook-Delivery');
  if (handled.has(delivery)) return res.sendStatus(200);
  const { event, data } = JSON.parse(req.body.toString('utf8'));
  if (event === 'order.status') console.log(\`Order \${data.order} is now \${data.status}\`);
  handled.add(delivery);
  res.sendStatus(200);
});
app.listen(3000);
`;

export const webhookPhpExample = `<?php
$secret = getenv('WEBHOOK_SECRET'); // whsec_…, shown once when you added the webhook
$body = file_get_contents('php://input'); // the raw body: verify it before json_decode

$parts = [];
foreach (explode(',', $_SERVER['HTTP_X_WEBHOOK_SIGNATURE'] ?? '') as $part) {
    [$name, $value] = array_pad(explode('=', trim($part), 2), 2, '');
    $parts[$name] = $value;
}
$t = $parts['t'] ?? '';
$expected = hash_hmac('sha256', $t . '.' . $body, $secret);
if (!ctype_digit($t) || time() - (int) $t > ${WEBHOOK_SIGNATURE_MAX_AGE_SECONDS} || !hash_equals($expected, $parts['v1'] ?? '')) {
    http_response_code(400);
    exit;
}

// A retry of a delivery you already handled carries the same X-Webhook-Delivery:
// look it up in your database, and if it is there answer 200 and do nothing again.
$deliveryId = $_SERVER['HTTP_X_WEBHOOK_DELIVERY'] ?? '';
$event = json_decode($body, true);
if ($event['event'] === 'order.status') {
    error_log("Order {$event['data']['order']} is now {$event['data']['status']}");
}
http_response_code(200);
`;
