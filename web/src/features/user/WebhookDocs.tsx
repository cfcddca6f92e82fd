// The webhooks' documentation, after the API's: what a delivery carries, how to check its signature, and what we do
// when an endpoint does not take it. The words live in apiDocs.ts, beside the recipe a Worker test follows.

import type { ReactNode } from 'react';
import {
  WEBHOOK_EVENT_DOCS,
  WEBHOOK_HEADERS,
  webhookBodyExample,
  webhookLimitsNote,
  webhookNodeExample,
  webhookPhpExample,
  webhookRetryNote,
  webhookSignatureRecipe,
} from './apiDocs';
import { CodeBlock, ParamTable } from './DocBlocks';

const Code = ({ children }: { children: ReactNode }) => <span className="font-mono text-xs">{children}</span>;

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-900">{title}</h4>
      {children}
    </div>
  );
}

export function WebhookDocs() {
  return (
    <section id="api-webhooks" className="card space-y-5 p-4 sm:p-6" aria-labelledby="api-webhooks-title">
      <div className="space-y-1.5 text-sm text-slate-700">
        <h3 id="api-webhooks-title" className="text-base font-bold text-slate-900">
          Receiving webhooks
        </h3>
        <p>
          Add a webhook above and we tell your endpoint what changed, instead of your tool asking for status again and again. Each delivery is an HTTP POST with
          a JSON body <Code>{'{"event", "createdAt", "data"}'}</Code>: the event&apos;s name, when it happened (ISO 8601, UTC), and its data below.
        </p>
        <p>
          Events go out within a few minutes of happening, a test at once. Deliveries can arrive out of order (a retry can come after a later event): compare{' '}
          <Code>createdAt</Code>, or read the order&apos;s status with the API, to know which is newest.
        </p>
      </div>

      <Part title="Events">
        <div className="space-y-5">
          {WEBHOOK_EVENT_DOCS.map((doc) => (
            <div key={doc.event} className="space-y-2">
              <p className="text-sm text-slate-700">
                <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs font-semibold text-slate-900">{doc.event}</code> {doc.when}
              </p>
              <div className="grid grid-cols-1 gap-3 lg:grid-cols-2 lg:items-start lg:gap-6">
                <ParamTable params={doc.fields} caption={`${doc.event} data`} nameHeading="Field" />
                <CodeBlock code={webhookBodyExample(doc)} label={`${doc.event} example body`} />
              </div>
            </div>
          ))}
        </div>
      </Part>

      <Part title="Headers">
        <ParamTable params={WEBHOOK_HEADERS} caption="Webhook headers" nameHeading="Header" />
      </Part>

      <Part title="Checking the signature">
        <p className="text-sm text-slate-700">Check every delivery before acting on it, with the signing secret shown when you added the webhook:</p>
        <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700" aria-label="How to check a webhook signature">
          {webhookSignatureRecipe.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <div className="grid grid-cols-1 gap-3 lg:grid-cols-2 lg:items-start lg:gap-6">
          <div className="min-w-0 space-y-2">
            <p className="text-sm font-semibold text-slate-700">Node.js</p>
            <CodeBlock code={webhookNodeExample} label="Node.js webhook example" />
          </div>
          <div className="min-w-0 space-y-2">
            <p className="text-sm font-semibold text-slate-700">PHP</p>
            <CodeBlock code={webhookPhpExample} label="PHP webhook example" />
          </div>
        </div>
      </Part>

      <Part title="Answering and retries">
        <p className="text-sm text-slate-700">{webhookRetryNote}</p>
      </Part>

      <Part title="Addresses and limits">
        <p className="text-sm text-slate-700">{webhookLimitsNote}</p>
      </Part>
    </section>
  );
}
