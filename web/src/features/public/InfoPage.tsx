import type { ReactNode } from 'react';
import { Skeleton } from '@/components/Skeleton';

/** Text from site settings: kept as plain text, paragraphs split on blank lines; a long URL breaks anywhere rather than overflow. */
export function SettingsText({ text, loading, fallback }: { text?: string | null; loading: boolean; fallback: ReactNode }) {
  if (loading) {
    return (
      <div className="space-y-3" role="status" aria-label="Loading">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-11/12" />
        <Skeleton className="h-4 w-9/12" />
      </div>
    );
  }
  if (!text?.trim()) return <>{fallback}</>;
  return (
    <div className="space-y-4 leading-relaxed [overflow-wrap:anywhere] text-slate-700">
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one text, split again whenever it changes; the same paragraph may come twice, so its words cannot be the key, and a <p> holds no state to lose
          <p key={i} className="whitespace-pre-line">
            {p}
          </p>
        ))}
    </div>
  );
}

export function InfoShell({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div>
      <div className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto max-w-4xl px-4 pt-12 pb-8">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
          <p className="mt-2 [overflow-wrap:anywhere] text-slate-600">{intro}</p>
        </div>
      </div>
      <div className="mx-auto max-w-4xl px-4 pb-16">{children}</div>
    </div>
  );
}
