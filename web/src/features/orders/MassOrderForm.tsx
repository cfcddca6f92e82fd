// The mass order: many "serviceId|link|quantity" lines at once. Each line is priced from the
// catalogue as the Worker counts a batch (massLineChargeKobo), and the total shows before anything
// is charged; it is sent as the total agreed, so when prices moved meanwhile nothing is placed
// until the customer confirms the new total. After placing, the lines placed leave the box and
// the others stay in it, each with the reason it was not placed.

import { MASS_ORDER_MAX_LINES, type MassOrderLine, massOrderSchema, parseMassOrderLines, SERVICE_UNAVAILABLE } from '@schemas/orders';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { nairaToKobo, serviceByIdQuery } from '@/api/catalogue';
import { orderKeys } from '@/api/orders';
import { useWalletBalance, walletKeys } from '@/api/wallet';
import { TextAreaField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { handleApiError, isApiError } from '@/lib/api';
import { formatKobo, koboToNaira } from '@/lib/format';
import { newIdempotencyKey, useDebouncedValue } from '@/lib/hooks';
import { toast } from '@/lib/toast';
import { type MassOrderResult, massOrder } from './api/mass-order';
import { newPrice } from './api/place-order';
import { ChargeSummary, type PriceChange, PriceChangedAlert } from './OrderCharge';
import { massLineChargeKobo } from './orderFields';

const NEEDS_ORDER_FORM = 'This service needs more details than a line can give: order it on the New order tab';

/** A line as it is sent, and as its reason is remembered once the server refused it. */
const lineText = (line: MassOrderLine) => `${line.serviceId}|${line.link}|${line.quantity}`;

interface PricedLine {
  line: MassOrderLine;
  /** What the line adds to the total; null when it cannot be placed (problem says why) or its price is still loading. */
  chargeKobo: bigint | null;
  problem: string | null;
}

/** The lines with their prices from the catalogue, looked up by service id once the typing pauses. */
function usePricedLines(lines: MassOrderLine[]): { priced: PricedLine[]; loading: boolean } {
  const wanted = useMemo(() => [...new Set(lines.filter((l) => !l.error && /^\d{1,9}$/.test(l.serviceId)).map((l) => l.serviceId))].sort().join(','), [lines]);
  const ids = useDebouncedValue(wanted, 400);
  const idList = useMemo(() => (ids ? ids.split(',') : []), [ids]);
  const lookups = useQueries({ queries: idList.map((id) => serviceByIdQuery(id)) });
  let loading = wanted !== ids;
  const priced = lines.map((line): PricedLine => {
    if (line.error) return { line, chargeKobo: null, problem: line.error };
    if (!/^\d{1,9}$/.test(line.serviceId)) return { line, chargeKobo: null, problem: SERVICE_UNAVAILABLE };
    const lookup = lookups[idList.indexOf(line.serviceId)];
    if (!lookup || lookup.isPending) {
      loading = true;
      return { line, chargeKobo: null, problem: null };
    }
    if (!lookup.data) return { line, chargeKobo: null, problem: lookup.isError ? 'Its price could not be loaded' : SERVICE_UNAVAILABLE };
    const chargeKobo = massLineChargeKobo(lookup.data, line.quantity);
    return { line, chargeKobo, problem: chargeKobo === null ? NEEDS_ORDER_FORM : null };
  });
  return { priced, loading };
}

export function MassOrderForm() {
  const queryClient = useQueryClient();
  const balance = useWalletBalance();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<Array<MassOrderResult & { text: string }> | null>(null);
  /** Why the server did not place a line, by the line's text: shown beside it while it stays in the box unchanged. */
  const [reasons, setReasons] = useState<ReadonlyMap<string, string>>(new Map());
  const [totalChange, setTotalChange] = useState<PriceChange | null>(null);
  const keyRef = useRef<string | null>(null);
  const lines = useMemo(() => parseMassOrderLines(text), [text]);
  const { priced, loading } = usePricedLines(lines);
  const totalKobo = priced.reduce((sum, p) => sum + (p.chargeKobo ?? 0n), 0n);
  const problems = priced
    .map((p) => ({ line: p.line.line, problem: p.line.error ? p.problem : (reasons.get(lineText(p.line)) ?? p.problem) }))
    .filter((p): p is { line: number; problem: string } => p.problem !== null);
  const malformed = lines.filter((l) => l.error);
  const balanceKobo = balance.data !== undefined ? nairaToKobo(balance.data.toFixed(2)) : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the text is the trigger, not an input: edited lines are a new submission, priced as shown again
  useEffect(() => {
    keyRef.current = null;
    setTotalChange(null);
  }, [text]);

  const send = async (expectedTotal: string) => {
    if (sending) return;
    const parsed = massOrderSchema.safeParse({ orders: text });
    const message = !parsed.success
      ? (parsed.error.issues[0]?.message ?? 'Enter at least one order')
      : malformed.length
        ? `Line ${malformed[0].line}: ${malformed[0].error}`
        : null;
    setError(message);
    if (message) {
      toast.error(message);
      return;
    }
    setSending(true);
    keyRef.current ??= newIdempotencyKey();
    try {
      const res = await massOrder(lines.map(lineText).join('\n'), expectedTotal, keyRef.current);
      keyRef.current = null;
      // The server numbers the lines as sent: the box's lines without the blank ones.
      const list = res.results.map((r) => ({ ...r, text: lines[r.line - 1] ? lineText(lines[r.line - 1]) : '' }));
      const failed = list.filter((r) => !r.ok && r.text);
      setResults(list);
      setReasons(new Map(failed.map((r) => [r.text, r.error ?? 'Not placed'])));
      const ok = list.filter((r) => r.ok).length;
      if (ok) {
        toast.success(`${ok} of ${list.length} orders placed`);
        setText(failed.map((r) => r.text).join('\n'));
        void queryClient.invalidateQueries({ queryKey: walletKeys.all });
        void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      } else {
        toast.error('No orders were placed');
      }
    } catch (err) {
      const now = newPrice(err, 'total');
      // A new total wrote nothing, so confirming it is the same submission: keeping the key makes a
      // retry that had already placed some lines return those instead of placing them again.
      if (!(isApiError(err) && err.status === null) && now === null) keyRef.current = null;
      if (now !== null) {
        setTotalChange({ shownKobo: nairaToKobo(expectedTotal), now });
        void queryClient.invalidateQueries({ queryKey: ['services', 'byId'] });
      } else {
        handleApiError(err);
      }
    } finally {
      setSending(false);
    }
  };

  const insufficient = balanceKobo !== null && totalKobo > balanceKobo;
  const countable = priced.filter((p) => p.chargeKobo !== null).length;

  return (
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void send(koboToNaira(totalKobo));
        }}
        className="card space-y-4 p-4 sm:p-6"
        aria-label="Mass order"
      >
        <TextAreaField
          label="Orders"
          rows={10}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={'101|https://instagram.com/p/abc|1000\n205|https://tiktok.com/@me/video/1|500'}
          hint={`One order per line: serviceId|link|quantity. Up to ${MASS_ORDER_MAX_LINES} lines.`}
          error={error ?? undefined}
          spellCheck={false}
        />
        <div className="flex items-center justify-between text-sm text-slate-600">
          <span>
            {lines.length} line{lines.length === 1 ? '' : 's'}
            {problems.length ? <span className="text-rose-700"> · {problems.length} not to be placed</span> : null}
          </span>
        </div>
        {problems.length ? (
          <ul aria-label="Lines not placed" className="space-y-1 rounded-xl bg-rose-50 p-3 text-sm text-rose-800">
            {problems.map((p) => (
              <li key={p.line}>
                Line {p.line}: {p.problem}
              </li>
            ))}
          </ul>
        ) : null}

        <ChargeSummary
          label="Total"
          detail={countable ? `${countable} order${countable === 1 ? '' : 's'}` : null}
          amount={loading ? <Spinner className="h-4 w-4" label="Loading prices" /> : formatKobo(totalKobo)}
        >
          {insufficient && !loading ? (
            <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-2.5 text-sm text-amber-900">
              The total is more than your balance: the lines your balance does not cover will not be placed.
            </p>
          ) : null}
        </ChargeSummary>

        {totalChange ? (
          <PriceChangedAlert change={totalChange} of="batch" sending={sending} onConfirm={() => void send(totalChange.now)} />
        ) : (
          <button type="submit" className="btn btn-primary w-full" disabled={sending || loading || lines.length === 0}>
            {sending ? <Spinner label="Placing orders" /> : <Icon name="stack" />}
            {sending ? 'Placing orders…' : `Place orders for ${formatKobo(totalKobo)}`}
          </button>
        )}
      </form>
      <aside className="card p-5" aria-label="Results" aria-live="polite">
        <h2 className="font-semibold text-slate-900">Results</h2>
        {results === null ? (
          <p className="mt-2 text-sm text-slate-600">Each line&apos;s result appears here after you submit. Find service IDs on the Services tab.</p>
        ) : results.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">The server returned no results.</p>
        ) : (
          <ul className="mt-3 space-y-2 text-sm">
            {results.map((r) => (
              <li key={r.line} className="flex items-start gap-2">
                <Icon name={r.ok ? 'checkCircle' : 'xCircle'} className={r.ok ? 'h-5 w-5 shrink-0 text-emerald-600' : 'h-5 w-5 shrink-0 text-rose-600'} />
                <span className="min-w-0">
                  <span className="block truncate font-mono text-xs text-slate-500">{r.text}</span>
                  {r.ok ? `Order #${r.orderId ?? '—'} placed` : `Kept in the box: ${r.error ?? 'not placed'}`}
                </span>
              </li>
            ))}
          </ul>
        )}
      </aside>
    </div>
  );
}
