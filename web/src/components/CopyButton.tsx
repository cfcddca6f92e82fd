import { toast } from '@/lib/toast';
import { Icon } from './Icon';

/** Copies text, saying so; where the clipboard is unavailable the text stays selectable by hand. */
export function CopyButton({ text, label, className = 'btn-sm btn-secondary' }: { text: string; label: string; className?: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Copied');
    } catch {
      toast.error('Could not copy. Select the text and copy it by hand.');
    }
  };
  return (
    <button type="button" className={className} onClick={() => void copy()} aria-label={label}>
      <Icon name="copy" className="h-4 w-4" /> Copy
    </button>
  );
}
