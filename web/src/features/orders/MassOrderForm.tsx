// The mass order: many "serviceId|link|quantity" lines at once. Each line is checked as the Worker
// checks it, as far as the page can tell (its format, the service on sale and orderable by a line,
// the link, the quantity within the service's range), and priced from the catalogue as the Worker
// counts a batch (massLineChargeKobo). A line the page can already reject is marked with its reason
// and neither counted nor sent: the total and the button count only the lines that would be placed.
// The total is sent as the total agreed, so when prices moved meanwhile nothing is placed until the
// customer confirms the new total. After placing, the lines placed leave the box and the others
// stay in it, each with the reason it was not placed. While the wallet owes a debt, nothing can be
// placed (the Worker refuses every order until a deposit settles it), and the page says so.

import { MASS_ORDER_MAX_LINES, type MassOrderLine, massOrderSchema, parseMassOrderLines, SERVICE_UNAVAILABLE } from '@schemas/orders';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { nairaToKobo, serviceByIdQuery } from '@/api/catalogue';
import { orderKeys } from '@/api/orders';
import { useWalletBalance, useWalletDebt, walletKeys } from '@/api/wallet';
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
import { massLineChargeKobo, massLineProblem } from './orderFields';

/** A line as it is sent, and as its reason is remembered once the server refused it. */
const lineText = (line: MassOrderLine) => `${line.serviceId}|${line.link}|${line.quantity}`;

/** The server's refusals that are about the wallet, not the line: the same line may be placed once the wallet allows it. */
const isWalletReason = (reason: string) => reason === 'Insufficient wallet balance' || reason.startsWith('Your wallet owes ');

interface PricedLine {
  line: MassOrderLine;
  /** What the line adds to the total; null when it cannot be placed (problem says why) or its price is still loading. */
  chargeKobo: bigint | null;
  problem: string | null;
}

/** The lines checked and priced from the catalogue, looked up by service id once the typing pauses. */
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
    const problem = massLineProblem(lookup.data, line);
    if (problem) return { line, chargeKobo: null, problem };
    return { line, chargeKobo: massLineChargeKobo(lookup.data, line.quantity), problem: null };
  });
  return { priced, loading };
}

export function MassOrderForm() {
  const queryClient = useQueryClient();
  const balance = useWalletBalance();
  const debt = useWalletDebt();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<Array<MassOrderResult & { text: string }> | null>(null);
  /** Why the server did not place a line, by the line's text: shown beside it while it stays in the box unchanged. */
  const [reasons, setReasons] = useState<ReadonlyMap<string, string>>(new Map());
  const [totalChange, setTotalChange] = useState<PriceChange | null>(null);
  const keyRef = useRef<string | null>(null);
  const blockedId = useId();
  const lines = useMemo(() => parseMassOrderLines(text), [text]);
  const { priced, loading } = usePricedLines(lines);
  const checked = priced.map((p) => {
    const refused = p.line.error ? undefined : reasons.get(lineText(p.line));
    // The page's own reason first; else the server's for this very line, which it gives again unless the wallet was the reason.
    const problem = p.problem ?? refused ?? null;
    const placeable = p.chargeKobo !== null && (refused === undefined || isWalletReason(refused));
    return { ...p, problem, placeable };
  });
  /** The lines that are sent and counted: those neither the page nor an earlier answer has refused. */
  const toPlace = checked.filter((p) => p.placeable);
  const totalKobo = toPlace.reduce((sum, p) => sum + (p.chargeKobo ?? 0n), 0n);
  const problems = checked.filter((p): p is typeof p & { problem: string } => p.problem !== null).map((p) => ({ line: p.line.line, problem: p.problem }));
  const notToPlace = checked.filter((p) => !p.placeable && p.problem !== null).length;
  const balanceKobo = balance.data !== undefined ? nairaToKobo(balance.data.toFixed(2)) : null;
  const debtKobo = debt.data ? nairaToKobo(debt.data.toFixed(2)) : 0n;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the text is the trigger, not an input: edited lines are a new submission, priced as shown again
  useEffect(() => {
    keyRef.current = null;
    setTotalChange(null);
  }, [text]);

  const send = async (expectedTotal: string) => {
    if (sending) return;
    const parsed = massOrderSchema.safeParse({ orders: text });
    const message = !parsed.success ? (parsed.error.issues[0]?.message ?? 'Enter at least one order') : toPlace.length === 0 ? 'No line can be placed' : null;
    setError(message);
    if (message) {
      toast.error(message);
      return;
    }
    setSending(true);
    keyRef.current ??= newIdempotencyKey();
    const sent = toPlace.map((p) => p.line);
    try {
      const res = await massOrder(sent.map(lineText).join('\n'), expectedTotal, keyRef.current);
      keyRef.current = null;
      // The server numbers the lines as sent: only the lines the page would place, in the box's order.
      const list = res.results.map((r) => ({ ...r, text: sent[r.line - 1] ? lineText(sent[r.line - 1]) : '' }));
      const failed = list.filter((r) => !r.ok && r.text);
      setResults(list);
      // The reasons of lines not sent this time stay with them: the server would give them again.
      const sentTexts = new Set(sent.map(lineText));
      setReasons(
        new Map([...[...reasons].filter(([line]) => !sentTexts.has(line)), ...failed.map((r): [string, string] => [r.text, r.error ?? 'Not placed'])]),
      );
      const placed = new Set(list.filter((r) => r.ok).map((r) => sent[r.line - 1]));
      if (placed.size) {
        toast.success(`${placed.size} of ${lines.length} orders placed`);
        // Every line not placed stays, as it was typed: the server's refusals and the lines the page did not send.
        const typed = text.split(/\r?\n/);
        setText(
          lines
            .filter((l) => !placed.has(l))
            .map((l) => typed[l.line - 1]?.trim() ?? lineText(l))
            .join('\n'),
        );
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
  const owes = debtKobo > 0n;
  /** Lines are typed, checked, and not one of them would be placed. */
  const nothingToPlace = lines.length > 0 && !loading && toPlace.length === 0;

  return (
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (owes || nothingToPlace) return;
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
            {notToPlace ? <span className="text-rose-700"> · {notToPlace} not to be placed</span> : null}
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
          detail={toPlace.length ? `${toPlace.length} order${toPlace.length === 1 ? '' : 's'}` : null}
          amount={loading ? <Spinner className="h-4 w-4" label="Loading prices" /> : formatKobo(totalKobo)}
        >
          {owes ? (
            <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-2.5 text-sm text-amber-900">
              Your wallet owes {formatKobo(debtKobo)} after a card payment was refunded or charged back, and no order can be placed until it is paid. Your next
              deposit settles it first.{' '}
              <Link to="/user/add-fund" className="font-semibold underline">
                Add funds
              </Link>
            </p>
          ) : insufficient && !loading ? (
            <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-2.5 text-sm text-amber-900">
              The total is more than your balance: the lines your balance does not cover will not be placed.
            </p>
          ) : null}
        </ChargeSummary>

        {totalChange ? (
          <PriceChangedAlert change={totalChange} of="batch" sending={sending} disabled={owes} onConfirm={() => void send(totalChange.now)} />
        ) : nothingToPlace || owes ? (
          <>
            <button type="submit" className="btn btn-primary w-full" disabled aria-describedby={blockedId}>
              <Icon name="stack" />
              No orders to place
            </button>
            <p id={blockedId} className="text-sm text-slate-600">
              {owes
                ? 'Orders can be placed once what your wallet owes is paid.'
                : 'Every line is marked not to be placed: correct the lines above to place them.'}
            </p>
          </>
        ) : (
          <button type="submit" className="btn btn-primary w-full" disabled={sending || loading || toPlace.length === 0}>
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
