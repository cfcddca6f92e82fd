// /user/api: the user's reseller API keys (create, copy once, rotate, revoke) and the API v2
// documentation laid out as SMM panels lay theirs out, so resellers find what they expect.

import { zodResolver } from '@hookform/resolvers/zod';
import { API_KEY_NAME_MAX, type CreateApiKeyInput, createApiKeySchema } from '@schemas/api-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { SelectField, TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { SkeletonRows } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { TimeAgo } from '@/components/TimeAgo';
import { handleApiError } from '@/lib/api';
import { confirmAction } from '@/lib/confirm';
import { formatDate, formatDateTime } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { toast } from '@/lib/toast';
import { createApiKey, type NewApiKey } from './api/create-api-key';
import { type ApiKey, apiKeyKeys, useApiKeys } from './api/get-api-keys';
import { revokeApiKey } from './api/revoke-api-key';
import { rotateApiKey } from './api/rotate-api-key';
import { ACTIONS, type ActionDoc, COMMON_ERRORS, curlExample, type DocParam, ORDER_TYPES, phpExample, RATE_LIMIT_NOTE } from './apiDocs';

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

// ---------------------------------------------------------------- keys

/** What can be done to a key once made: each is asked first, since tools still using the key stop working at once. */
const KEY_ACTIONS = [
  { verb: 'Rotate', icon: 'refresh', danger: false, warning: 'A new key replaces this one, and tools still using the old key stop working at once.' },
  { verb: 'Revoke', icon: 'trash', danger: true, warning: 'Tools using this key stop working at once. This cannot be undone.' },
] as const;

function ApiKeysSection() {
  const queryClient = useQueryClient();
  const keys = useApiKeys();
  const [revealed, setRevealed] = useState<{ apiKey: NewApiKey; rotated: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<CreateApiKeyInput>({ resolver: zodResolver(createApiKeySchema), defaultValues: { name: '' } });

  /** A change to the keys: `done` with the answer, then the list is read again; a refusal is said in a toast. */
  const keyChange = <V, R>(mutationFn: (variables: V) => Promise<R>, done: (res: R) => void) => ({
    mutationFn,
    onSuccess: (res: R) => {
      done(res);
      void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
    },
    onError: (error: unknown) => handleApiError(error),
  });
  const create = useMutation(
    keyChange(createApiKey, (res) => {
      reset({ name: '' });
      setRevealed({ apiKey: res.data, rotated: false });
    }),
  );
  const rotate = useMutation(
    keyChange(
      (key: ApiKey) => rotateApiKey(key.id),
      (res) => setRevealed({ apiKey: res.data, rotated: true }),
    ),
  );
  const revoke = useMutation(
    keyChange(
      (key: ApiKey) => revokeApiKey(key.id),
      (res) => toast.success(res.message),
    ),
  );

  const run = { Rotate: rotate, Revoke: revoke };
  const ask = async ({ verb, warning, danger }: (typeof KEY_ACTIONS)[number], key: ApiKey) => {
    if (await confirmAction({ title: `${verb} "${key.name}"?`, text: warning, confirmText: verb, danger })) run[verb].mutate(key);
  };
  const busyId = (rotate.isPending ? rotate.variables?.id : undefined) ?? (revoke.isPending ? revoke.variables?.id : undefined);

  return (
    <section className="card p-4 sm:p-6" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title" className="text-lg font-bold text-slate-900">
        Your API keys
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        A key is shown once, when you create or rotate it; we keep only a fingerprint. Give each tool its own key, so you can revoke one without touching the
        others.
      </p>

      <form
        noValidate
        onSubmit={handleSubmit(
          (values) => create.mutate(values.name.trim()),
          (e) => toastFirstError(e, ['name']),
        )}
        className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <TextField
          label="Key name"
          placeholder="e.g. My child panel"
          maxLength={API_KEY_NAME_MAX}
          autoComplete="off"
          containerClassName="sm:flex-1"
          error={errors.name?.message}
          {...register('name')}
        />
        <button type="submit" className="btn btn-primary sm:mt-7" disabled={create.isPending}>
          {create.isPending ? <Spinner label="" className="h-4 w-4" /> : <Icon name="plus" className="h-4 w-4" />}
          Create key
        </button>
      </form>

      <div className="mt-5">
        <QueryState query={keys} skeleton={<SkeletonRows rows={2} className="h-16" label="Loading API keys" />}>
          {(list) =>
            list.length === 0 ? (
              <EmptyState icon="lock" title="No API keys yet">
                Create a key above, then paste it with the API URL below into your tool.
              </EmptyState>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" aria-label="API keys">
                {list.map((key) => (
                  <li key={key.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
                    <div className="min-w-0">
                      <p className="truncate font-semibold text-slate-900">{key.name}</p>
                      <p className="mt-0.5 text-sm text-slate-600">
                        <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{key.prefix}…</code>
                        <span className="mx-1.5 text-slate-500">·</span>
                        <span title={formatDateTime(key.created_at)}>Created {formatDate(key.created_at)}</span>
                        <span className="mx-1.5 text-slate-500">·</span>
                        {key.last_used_at ? (
                          <span title={formatDateTime(key.last_used_at)}>
                            Last used <TimeAgo at={key.last_used_at} />
                          </span>
                        ) : (
                          'Never used'
                        )}
                      </p>
                    </div>
                    <div className="flex shrink-0 gap-2">
                      {KEY_ACTIONS.map((action) => (
                        <button
                          key={action.verb}
                          type="button"
                          className={action.danger ? 'btn-sm btn-ghost text-rose-700 hover:bg-rose-50' : 'btn-sm btn-secondary'}
                          disabled={busyId === key.id}
                          onClick={() => void ask(action, key)}
                          aria-label={`${action.verb} ${key.name}`}
                        >
                          <Icon name={action.icon} className="h-4 w-4" /> {action.verb}
                        </button>
                      ))}
                    </div>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </div>

      <Modal
        open={revealed !== null}
        onClose={() => setRevealed(null)}
        title={revealed?.rotated ? 'Your rotated API key' : 'Your new API key'}
        description="Copy it now and keep it somewhere safe: it will not be shown again."
      >
        {revealed ? (
          <div className="space-y-4">
            <TextField
              label={revealed.apiKey.name}
              value={revealed.apiKey.key}
              readOnly
              className="font-mono text-sm"
              onFocus={(e) => e.currentTarget.select()}
            />
            {revealed.rotated ? <p className="text-sm text-amber-800">The previous key of “{revealed.apiKey.name}” no longer works.</p> : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <button type="button" className="btn btn-secondary" onClick={() => setRevealed(null)}>
                Done
              </button>
              <CopyButton text={revealed.apiKey.key} label="Copy API key" className="btn btn-primary" />
            </div>
          </div>
        ) : null}
      </Modal>
    </section>
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
          <dd className="text-slate-700">POST (form fields, multipart or JSON); GET with the fields in the query string works too</dd>
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
            Send an <span className="font-mono text-xs">Idempotency-Key</span> header with <span className="font-mono text-xs">add</span>: a retry with the same
            key returns the first order instead of placing another.
          </dd>
          <dt className="font-semibold text-slate-700">Rate limit</dt>
          <dd className="text-slate-700">{RATE_LIMIT_NOTE}</dd>
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
