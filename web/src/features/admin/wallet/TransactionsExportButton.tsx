// "Export CSV" on the Transactions screen: the server's queue writes the file of the rows the filters pick (a year's
// ledger is too long to write in a request), the button says so while it does, and the file downloads by itself when
// it is ready, with a link to download it again; or the line says why it failed, and the button starts a new export.
import type { AdminTransactionExportInput } from '@schemas/wallet';
import { useEffect, useRef, useState } from 'react';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { downloadText } from '@/lib/download';
import { formatCount } from '@/lib/format';
import { downloadTransactionsExport } from './api/download-transactions-export';
import { isBeingWritten, useTransactionsExport } from './api/get-transactions-export';
import { useStartTransactionsExport } from './api/start-transactions-export';

const fileName = () => `transactions-${new Date().toISOString().slice(0, 10)}.csv`;

export function TransactionsExportButton({ filters }: { filters: AdminTransactionExportInput }) {
  const start = useStartTransactionsExport();
  const [exportId, setExportId] = useState<number | null>(null);
  const [downloadedName, setDownloadedName] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const downloadedByItself = useRef<number | null>(null);
  const { data: file, error: readError } = useTransactionsExport(exportId);

  const download = async (id: number) => {
    setDownloading(true);
    try {
      const name = fileName();
      downloadText(await downloadTransactionsExport(id), name);
      setDownloadedName(name);
    } catch (error) {
      handleApiError(error);
    } finally {
      setDownloading(false);
    }
  };

  const ready = file?.state === 'done' && file.id === exportId;
  // Once, as soon as the file is written (a failed download offers Download rather than trying again by itself).
  // biome-ignore lint/correctness/useExhaustiveDependencies: download is a new function each render; the export decides.
  useEffect(() => {
    if (!ready || exportId === null || downloadedByItself.current === exportId) return;
    downloadedByItself.current = exportId;
    void download(exportId);
  }, [ready, exportId]);

  const onExport = () => {
    setDownloadedName(null);
    start.mutate(filters, { onSuccess: (created) => setExportId(created.id), onError: (error) => handleApiError(error) });
  };
  const busy = start.isPending || isBeingWritten(file) || downloading;

  return (
    <div className="flex flex-col items-start gap-1 sm:items-end">
      <button type="button" className="btn btn-secondary" onClick={onExport} disabled={busy}>
        {busy ? <Spinner className="h-4 w-4" label="" /> : <Icon name="download" className="h-4 w-4" />} {busy ? 'Preparing CSV…' : 'Export CSV'}
      </button>
      <p role="status" className="max-w-xs text-xs text-slate-600 sm:text-right">
        {readError ? (
          getErrorMessage(readError)
        ) : isBeingWritten(file) ? (
          'Writing the file of these transactions; it downloads when ready.'
        ) : file?.state === 'failed' ? (
          <span className="text-red-700">{file.error}</span>
        ) : ready ? (
          <>
            {downloadedName ? `${downloadedName}: ` : 'The file is ready: '}
            {formatCount(file.rows ?? 0)} {file.rows === 1 ? 'row' : 'rows'}.{' '}
            <button type="button" className="link" onClick={() => void download(file.id)} disabled={downloading}>
              {downloadedName ? 'Download again' : 'Download'}
            </button>
          </>
        ) : null}
      </p>
    </div>
  );
}
