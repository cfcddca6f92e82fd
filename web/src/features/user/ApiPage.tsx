// /user/api: the user's reseller API keys (ApiKeysSection) and the API v2
// documentation laid out as SMM panels lay theirs out, so resellers find what they expect.

import { useId, useState } from 'react';
import { CopyButton } from '@/components/CopyButton';
import { SelectField } from '@/components/Field';
import { PageHeader } from '@/components/PageHeader';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { ApiKeysSection } from './ApiKeysSection';
import { useApiKeys } from './api/get-api-keys';
import { ACTIONS, type ActionDoc, COMMON_ERRORS, curlExample, type DocParam, methodNote, ORDER_TYPES, phpExample, rateLimitNote } from './apiDocs';

export default function ApiPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        title="API"
        description="Connect your reseller panel, bot or script: this shop speaks the standard SMM panel API v2, so tools made for other panels work here unchanged."
      />
      <ApiKeysSection />
      <ApiDocumentation />
    </div>
  );
}

// ---------------------------------------------------------------- documentation

function ParamTable({ params, caption }: { params: ReadonlyArray<DocParam>; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="w-2/5 px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              Parameter
            </th>
            <th scope="col" className="px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              Description
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {params.map((param) => (
            <tr key={param.name}>
              <td className="px-3 py-2 align-top font-mono text-xs whitespace-nowrap text-slate-900">{param.name}</td>
              <td className="px-3 py-2 text-slate-700">{param.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div className="relative">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus, or a keyboard cannot scroll it (its text holds no link or button) */}
      <section className="max-h-96 overflow-auto rounded-xl bg-slate-900 p-4 pr-20 text-xs leading-relaxed text-slate-100" aria-label={label} tabIndex={0}>
        <pre>
          <code>{code}</code>
        </pre>
      </section>
      <CopyButton text={code} label={`Copy ${label}`} className="btn-sm absolute top-2 right-2 bg-white/10 text-white hover:bg-white/20" />
    </div>
  );
}

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
            Pending, In progress, Processing, Completed, Partial or Canceled. An order not yet passed to our supplier is Pending.
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
    </section>
  );
}
