// The documentation's building blocks, shared by the API's actions and the webhooks: a parameter table and a
// code sample with a copy button.
import { CopyButton } from '@/components/CopyButton';
import type { DocParam } from './apiDocs';

/** `nameHeading`: what the first column lists (API parameters by default; a webhook's headers or data fields). */
export function ParamTable({ params, caption, nameHeading = 'Parameter' }: { params: ReadonlyArray<DocParam>; caption: string; nameHeading?: string }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className="w-2/5 px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
              {nameHeading}
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

export function CodeBlock({ code, label }: { code: string; label: string }) {
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
