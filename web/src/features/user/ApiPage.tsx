// /user/api: the user's reseller API keys (ApiKeysSection) and webhooks (WebhooksSection), then the API v2
// documentation laid out as SMM panels lay theirs out, so resellers find what they expect, and the webhooks' (WebhookDocs).

import { useId, useState } from 'react';
import { CopyButton } from '@/components/CopyButton';
import { SelectField } from '@/components/Field';
import { PageHeader } from '@/components/PageHeader';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { ApiKeysSection } from './ApiKeysSection';
import { useApiKeys } from './api/get-api-keys';
import { ACTIONS, type ActionDoc, COMMON_ERRORS, curlExample, methodNote, ORDER_TYPES, phpExample, rateLimitNote } from './apiDocs';
import { CodeBlock, ParamTable } from './DocBlocks';
import { WebhookDocs } from './WebhookDocs';
import { WebhooksSection } from './WebhooksSection';

export default function ApiPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="API"
        description="Connect your reseller panel, bot or script: this shop speaks the standard SMM panel API v2, so tools made for other panels work here unchanged."
      />
      <ApiKeysSection />
      <WebhooksSection />
      <ApiDocumentation />
    </div>
  );
}

// ---------------------------------------------------------------- documentation

function ActionSection({ doc }: { doc: ActionDoc }) {
  const [type, setType] = useState(ORDER_TYPES[0].type);
  const params = doc.id === 'add' ? [...doc.params, ...(ORDER_TYPES.find((entry) => entry.type === type)?.params ?? [])] : doc.params;
  return (
    <section id={`api-${doc.id}`} className="card space-y-3 p-4 sm:p-6" aria-labelledby={`api-${doc.id}-title`}>
      <h3 id={`api-${doc.id}-title`} className="font-bold text-slate-900">
        {doc.title}
      </h3>
      {doc.id === 'add' ? (
        <SelectField label="Service type" value={type} onChange={(e) => setType(e.target.value)} containerClassName="sm:max-w-xs">
          {ORDER_TYPES.map((entry) => (
            <option key={entry.type} value={entry.type}>
              {entry.type}
            </option>
          ))}
        </SelectField>
      ) : null}
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2 lg:items-start lg:gap-6">
        <ParamTable params={params} caption={`${doc.title} parameters`} />
        <div className="min-w-0 space-y-2">
          <p className="text-sm font-semibold text-slate-700">Example response</p>
          <CodeBlock code={JSON.stringify(doc.example, null, 2)} label={`${doc.title} example response`} />
        </div>
      </div>
    </section>
  );
}

function ApiDocumentation() {
  const idBase = useId();
  const [language, setLanguage] = useState<'curl' | 'php'>('curl');
  const url = `${window.location.origin}/api/v2`;
  // The operator's limits and GET rule travel with the keys (the same cached read as the section above).
  const limits = useApiKeys().data?.limits;
  return (
    <section className="space-y-4" aria-labelledby="api-docs-title">
      <h2 id="api-docs-title" className="text-lg font-bold text-slate-900">
        API documentation
      </h2>
      <div className="card p-4 sm:p-6">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
          <dt className="font-semibold text-slate-700">API URL</dt>
          <dd className="flex min-w-0 items-center gap-2">
            <code className="truncate rounded bg-slate-100 px-2 py-1 font-mono text-slate-900">{url}</code>
            <CopyButton text={url} label="Copy API URL" />
          </dd>
          <dt className="font-semibold text-slate-700">HTTP method</dt>
          <dd className="text-slate-700">{limits ? methodNote(limits) : 'POST (form fields, multipart or JSON)'}</dd>
          <dt className="font-semibold text-slate-700">API key</dt>
          <dd className="text-slate-700">Create one above and send it as the key field of every call</dd>
          <dt className="font-semibold text-slate-700">Response format</dt>
          <dd className="text-slate-700">JSON; money in NGN as text with two decimals</dd>
          <dt className="font-semibold text-slate-700">Errors</dt>
          <dd className="text-slate-700">
            <p>
              <span className="font-mono text-xs">{'{"error": "…"}'}</span> with HTTP 200, for example:
            </p>
            <ul className="mt-1.5 flex flex-wrap gap-1.5" aria-label="Common errors">
              {COMMON_ERRORS.map((error) => (
                <li key={error} className="rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-800">
                  {error}
                </li>
              ))}
            </ul>
          </dd>
          <dt className="font-semibold text-slate-700">Safe retries</dt>
          <dd className="text-slate-700">
            Send a <span className="font-mono text-xs">request_id</span> field (or an <span className="font-mono text-xs">Idempotency-Key</span> header) with{' '}
            <span className="font-mono text-xs">add</span>: a retry with the same one returns the first order instead of placing another, and the same one with
            other details is refused.
          </dd>
          <dt className="font-semibold text-slate-700">Order statuses</dt>
          <dd className="text-slate-700">
            Pending, In progress, Processing, Completed, Partial or Canceled. An order not yet passed to our supplier is Pending. While a refill or cancel you
            asked for waits for the supplier&apos;s answer, the order also has <span className="font-mono text-xs">"request": "Refill requested"</span> or{' '}
            <span className="font-mono text-xs">"Cancel requested"</span>; its status stays one of these six words.
          </dd>
          <dt className="font-semibold text-slate-700">Rate limit</dt>
          <dd className="space-y-1 text-slate-700">
            {limits ? <p>{rateLimitNote(limits)}</p> : null}
            <p>
              Every answer says where the key stands: <span className="font-mono text-xs">X-RateLimit-Limit</span>,{' '}
              <span className="font-mono text-xs">X-RateLimit-Remaining</span> and <span className="font-mono text-xs">X-RateLimit-Reset</span> (seconds until
              the minute ends). Past the limit the answer is HTTP 429 with <span className="font-mono text-xs">{'{"error": "…"}'}</span> and{' '}
              <span className="font-mono text-xs">Retry-After</span>.
            </p>
          </dd>
        </dl>
      </div>

      <nav aria-label="API actions" className="flex flex-wrap gap-2">
        {ACTIONS.map((doc) => (
          <a
            key={doc.id}
            href={`#api-${doc.id}`}
            className="rounded-full border border-slate-200 bg-white px-3 py-1.5 text-xs font-semibold text-slate-700 hover:border-brand-300 hover:text-brand-700"
          >
            {doc.title}
          </a>
        ))}
      </nav>

      {ACTIONS.map((doc) => (
        <ActionSection key={doc.id} doc={doc} />
      ))}

      <section className="card space-y-3 p-4 sm:p-6" aria-labelledby="api-examples-title">
        <h3 id="api-examples-title" className="font-bold text-slate-900">
          Examples
        </h3>
        <Tabs
          idBase={idBase}
          label="Example language"
          tabs={[
            { key: 'curl', label: 'curl' },
            { key: 'php', label: 'PHP' },
          ]}
          active={language}
          onChange={setLanguage}
        />
        <div {...tabPanelProps(idBase, 'curl')} hidden={language !== 'curl'}>
          <CodeBlock code={curlExample(url)} label="curl example" />
        </div>
        <div {...tabPanelProps(idBase, 'php')} hidden={language !== 'php'}>
          <CodeBlock code={phpExample(url)} label="PHP example" />
        </div>
      </section>

      <WebhookDocs />
    </section>
  );
}
