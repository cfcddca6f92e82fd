import { CopyButton } from '@/components/CopyButton';
import { Icon } from '@/components/Icon';
import { downloadText } from '@/lib/download';

/**
 * The ten recovery codes, once: the server keeps only their hashes. Each signs in once without the phone,
 * so the panel stays until the administrator says they are saved, with a copy and a text file to keep.
 */
export function RecoveryCodesPanel({ codes, message, account, onSaved }: { codes: string[]; message: string; account: string; onSaved: () => void }) {
  const text = codes.join('\n');
  const download = () =>
    downloadText(
      `Recovery codes for ${account} at ${window.location.host}\nEach code signs you in once, instead of a code from your authenticator app.\n\n${text}\n`,
      'recovery-codes.txt',
      'text/plain;charset=utf-8',
    );
  return (
    <section className="space-y-4 rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200 ring-inset" aria-labelledby="recovery-codes-title">
      <div>
        <h3 id="recovery-codes-title" className="font-semibold text-amber-950">
          Save your recovery codes
        </h3>
        <p className="mt-1 text-sm text-amber-900">{message}</p>
      </div>
      <ol className="grid grid-cols-2 gap-2 font-mono text-sm text-slate-900" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="rounded-lg bg-white px-3 py-2 text-center tracking-wider ring-1 ring-amber-200">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        <CopyButton text={text} label="Copy recovery codes" className="btn btn-secondary" />
        <button type="button" className="btn btn-secondary" onClick={download}>
          <Icon name="download" className="h-4 w-4" /> Download
        </button>
        <button type="button" className="btn btn-primary sm:ml-auto" onClick={onSaved}>
          <Icon name="check" className="h-4 w-4" /> I have saved them
        </button>
      </div>
    </section>
  );
}
