// What the API page documents, in the layout SMM panels use for their API v2 pages: per action,
// its parameters and an example answer. Limits, delays and refusal words come from the Worker's schemas
// (@schemas/reseller-api, @schemas/orders), so the page and the API cannot drift apart on them.
import { SUBSCRIPTION_DELAYS } from '@schemas/order-constants';
import { PANEL_ERRORS, RESELLER_BATCH_LIMIT } from '@schemas/reseller-api';
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
      { name: 'posts', description: 'How many new posts to cover (charged up front: max × posts)' },
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
      '100': { charge: '1120.50', start_count: '1234', status: 'In progress', remains: '10', currency: 'NGN' },
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
