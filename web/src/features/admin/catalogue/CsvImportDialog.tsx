// The CSV import: one row per service of a provider (multipart field `user_file`); every row is
// checked and answered on its own, and only good rows are written.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { SelectField } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Modal } from '@/components/Modal';
import { Badge } from '@/components/StatusBadge';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { handleApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useProviders } from './api/get-providers';
import { type CsvImportResult, importServicesCsv } from './api/import-services-csv';

const EXAMPLE = 'service,name,category,markup,min,max,enabled\n1021,Instagram Followers (Real),Instagram Followers,60,100,50000,1';

export function CsvImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const refresh = useRefreshAdmin();
  const providers = useProviders();
  const [providerId, setProviderId] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<CsvImportResult | null>(null);
  const chosen = providerId ?? providers.data?.[0]?.id ?? null;
  const upload = useMutation({
    mutationFn: ({ provider, csv }: { provider: number; csv: File }) => importServicesCsv(provider, csv),
    onSuccess: (res) => {
      setResult(res);
      toast[res.failed ? 'warning' : 'success'](res.message || `${res.imported} services imported`);
      void refresh();
    },
    onError: (error) => handleApiError(error),
  });
  const busy = upload.isPending;

  const close = () => {
    if (busy) return;
    setFile(null);
    setResult(null);
    onClose();
  };
  const submit = () => {
    if (chosen !== null && file) upload.mutate({ provider: chosen, csv: file });
  };

  return (
    <Modal
      open={open}
      onClose={close}
      busy={busy}
      size="lg"
      title="Import services from a CSV file"
      description="Each row sets one of the provider's services: created when new, rewritten when imported before."
    >
      <div className="space-y-4">
        <SelectField label="Provider" value={chosen ?? ''} onChange={(e) => setProviderId(Number(e.target.value))}>
          {(providers.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <div>
          <label htmlFor="csv-file" className="label">
            CSV file
          </label>
          <input
            id="csv-file"
            type="file"
            accept=".csv,text/csv"
            className="input file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-brand-700"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setResult(null);
            }}
          />
          <p className="mt-1.5 text-xs text-slate-500">
            Columns, in any order: <code>service</code> (the provider&apos;s id, required), <code>name</code>, <code>category</code>, <code>description</code>,{' '}
            <code>rate</code> (fixed naira per 1000) or <code>markup</code> (%), <code>min</code>, <code>max</code>, <code>enabled</code> (1/0). At most 2 MB.
          </p>
          <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-50 p-2 text-xs text-slate-700">{EXAMPLE}</pre>
        </div>
        {result ? (
          <div className="max-h-60 overflow-y-auto rounded-xl border border-slate-200">
            <table className="min-w-full text-sm">
              <caption className="sr-only">Import results</caption>
              <thead className="bg-slate-50 text-left text-xs text-slate-600 uppercase">
                <tr>
                  <th className="px-3 py-2">Row</th>
                  <th className="px-3 py-2">Service</th>
                  <th className="px-3 py-2">Result</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {result.results.map((r) => (
                  <tr key={r.row}>
                    <td className="px-3 py-1.5 tabular-nums">{r.row}</td>
                    <td className="px-3 py-1.5">{r.service}</td>
                    <td className="px-3 py-1.5">
                      {r.ok ? <Badge tone="green">Imported as #{r.serviceId}</Badge> : <span className="text-rose-700">{r.error}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        <FormActions
          onCancel={close}
          cancelLabel={result ? 'Done' : 'Cancel'}
          onConfirm={submit}
          busy={busy}
          disabled={!file || chosen === null}
          label="Import file"
          busyLabel="Importing..."
        />
      </div>
    </Modal>
  );
}
