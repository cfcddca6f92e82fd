// A local email API: the part of Resend's (https://resend.com/docs/api-reference/emails/send-email)
// the shop's email adapter uses, POST /emails with a Bearer key and {from, to, subject, text},
// answering {id}. It is the inbox of the local stack and the tests: every message is kept for
// GET /__messages?to=<address>, shown to people as a web inbox at GET / (links clickable), and
// `npm start` prints it, links included.

import { randomUUID } from 'node:crypto';
import { escapeHtml, type RunningFake, readFields, sendHtml, sendJson, startFakeServer } from './http';

export interface FakeMailboxOptions {
  apiKey: string;
  port?: number;
  /** Print each message to the terminal (npm start). */
  echo?: boolean;
}

interface Message {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  createdAt: string;
}

export async function startFakeMailbox(options: FakeMailboxOptions): Promise<RunningFake> {
  const messages: Message[] = [];
  const refuse = (response: Parameters<typeof sendJson>[0], statusCode: number, name: string, message: string) =>
    sendJson(response, statusCode, { statusCode, name, message });

  return startFakeServer(options.port ?? 0, (request, response) => {
    if (request.method === 'POST' && request.path === '/emails') {
      const key = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
      if (key === undefined) return refuse(response, 401, 'missing_api_key', 'Missing API key in the authorization header.');
      if (key !== options.apiKey) return refuse(response, 403, 'invalid_api_key', 'API key is invalid');
      const fields = readFields(request);
      const to = Array.isArray(fields.to)
        ? fields.to.filter((address): address is string => typeof address === 'string')
        : typeof fields.to === 'string'
          ? [fields.to]
          : [];
      if (typeof fields.from !== 'string' || fields.from === '') return refuse(response, 422, 'validation_error', 'The `from` field is required.');
      if (to.length === 0) return refuse(response, 422, 'validation_error', 'The `to` field is required.');
      if (typeof fields.subject !== 'string' || fields.subject === '') return refuse(response, 422, 'validation_error', 'The `subject` field is required.');
      const message: Message = {
        id: randomUUID(),
        from: fields.from,
        to,
        subject: fields.subject,
        text: typeof fields.text === 'string' ? fields.text : '',
        createdAt: new Date().toISOString(),
      };
      messages.push(message);
      if (options.echo) console.log(`\n[sandbox mail] to ${to.join(', ')}: ${message.subject}\n${message.text}\n`);
      return sendJson(response, 200, { id: message.id });
    }
    const to = request.query.get('to')?.toLowerCase();
    const addressedTo = () => (to ? messages.filter((message) => message.to.some((address) => address.toLowerCase() === to)) : messages);
    if (request.method === 'GET' && request.path === '/__messages') return sendJson(response, 200, { messages: addressedTo() });
    if (request.method === 'GET' && request.path === '/') return sendHtml(response, 200, inboxPage(addressedTo(), to));
    sendJson(response, 404, { statusCode: 404, name: 'not_found', message: 'Route not found' });
  });
}

/** Newest first, each link clickable: where someone trying the local shop confirms an address or resets a password. */
function inboxPage(messages: Message[], to: string | undefined): string {
  const linked = (text: string) => escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
  const items = messages
    .toReversed()
    .map(
      (message) =>
        `<article><h2>${escapeHtml(message.subject)}</h2><p class="meta">To ${escapeHtml(message.to.join(', '))} · ${message.createdAt}</p><pre>${linked(message.text)}</pre></article>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox mailbox</title>
<style>body{font:15px system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:1rem;color:#0f172a;overflow-wrap:anywhere}article{border:1px solid #cbd5e1;border-radius:.5rem;padding:0 1rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}.meta{color:#475569;font-size:13px}</style></head>
<body><h1>Sandbox mailbox${to ? ` for ${escapeHtml(to)}` : ''}</h1><p class="meta">Every email the local shop sends lands here, newest first. <a href="/">All</a> · filter with <code>?to=address</code>.</p>${items || '<p>No mail yet.</p>'}</body></html>`;
}
