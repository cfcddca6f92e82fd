// /user/create-order: pick a service, fill the fields its type needs, see the exact charge
// (ceil(rateKobo × quantity / 1000)) and the balance check before ordering. One Idempotency-Key
// per submission, so a double click or a retry after a dropped connection places one order.
// The "Mass order" tab sends many "serviceId|link|quantity" lines at once.
// Prices show in the visitor's display currency; what the order costs (charge, balance check,
// shortfall, the placed order's charge) stays in NGN, the charge with the converted equivalent.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { massOrderSchema, parseMassOrderLines, MASS_ORDER_MAX_LINES } from '@schemas/orders';
import { SelectField, TextAreaField, TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { PlatformBadge } from '@/components/PlatformBadge';
import { Skeleton } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { Spinner } from '@/components/Spinner';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { handleApiError, isApiError, publicApi } from '@/lib/api';
import { abbreviateNumber, formatAmount, formatCount, formatDuration, formatKobo, koboToNaira } from '@/lib/format';
import { newIdempotencyKey } from '@/lib/hooks';
import { toastFirstError } from '@/features/auth/formErrors';
import { useDisplayCurrency, type DisplayMoney } from '@/features/public/currency';
import { useWalletBalance, walletKeys } from '@/features/wallet/walletApi';
import { nairaToKobo, type Page, type Service } from './catalog';
import {
  canDripFeed, EMPTY_ORDER_FORM, FIELD_LABELS, linkFieldText, orderFormSchema, orderTotals, rateUnit, SUBSCRIPTION_DELAYS, toOrderBody, typeSpec, type OrderFormValues,
} from './orderFields';
import { massOrder, orderKeys, placeOrder, type MassOrderResult } from './ordersApi';
import { ServicePicker } from './ServicePicker';

type TabKey = 'single' | 'mass';
const TABS = [
  { key: 'single', label: 'New order' },
  { key: 'mass', label: 'Mass order' },
] as const;

/** The service named by router state, or by ?service=<id> (looked up through the search). */
function usePreselectedService(): { service: Service | null; loading: boolean } {
  const location = useLocation();
  const [params] = useSearchParams();
  const fromState = (location.state as { service?: Service } | null)?.service ?? null;
  const id = params.get('service');
  const lookup = useQuery({
    queryKey: ['services', 'byId', id],
    enabled: !fromState && Boolean(id),
    queryFn: ({ signal }) => publicApi.get<Page<Service>>('services', { query: { search: id, limit: 50 }, signal }),
    select: (r) => (Array.isArray(r?.data) ? (r.data.find((s) => String(s.id) === id) ?? null) : null),
    staleTime: 60_000,
  });
  if (fromState && (!id || String(fromState.id) === id)) return { service: fromState, loading: false };
  return { service: lookup.data ?? null, loading: lookup.isLoading };
}

export default function CreateOrderPage() {
  const idBase = useId();
  const [tab, setTab] = useState<TabKey>('single');
  const money = useDisplayCurrency();
  const preselected = usePreselectedService();
  const [service, setService] = useState<Service | null>(null);
  const [picking, setPicking] = useState(true);

  useEffect(() => {
    if (preselected.service) {
      setService(preselected.service);
      setPicking(false);
    }
  }, [preselected.service]);

  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">Place an order</h1>
          <p className="mt-1 text-sm text-slate-600">Choose a service, paste your link and see the exact price before you pay.</p>
        </div>
        <Link to="/user/orders" className="btn btn-secondary">
          <Icon name="list" className="h-4 w-4" /> My orders
        </Link>
      </header>
      <div className="max-w-md">
        <Tabs idBase={idBase} label="Order type" tabs={TABS} active={tab} onChange={setTab} />
      </div>

      <div {...tabPanelProps(idBase, 'single')} hidden={tab !== 'single'}>
        <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <section className="card p-4 sm:p-6" aria-label="Service">
            {preselected.loading ? (
              <div className="space-y-3" role="status" aria-label="Loading service">
                <Skeleton className="h-10 w-full" />
                <Skeleton className="h-24 w-full" />
              </div>
            ) : picking || !service ? (
              <>
                {service ? (
                  <div className="mb-3 flex justify-end">
                    <button type="button" className="btn-sm btn-ghost" onClick={() => setPicking(false)}>
                      Keep {service.name.length > 30 ? `${service.name.slice(0, 30)}...` : service.name}
                    </button>
                  </div>
                ) : null}
                <ServicePicker
                  selectedId={service?.id ?? null}
                  onSelect={(s) => {
                    setService(s);
                    setPicking(false);
                  }}
                />
              </>
            ) : (
              <OrderForm key={String(service.id)} service={service} money={money} onChangeService={() => setPicking(true)} />
            )}
          </section>
          <aside className="space-y-4">
            {service && !picking ? <ServiceDetails service={service} money={money} /> : <OrderTips />}
          </aside>
        </div>
      </div>

      <div {...tabPanelProps(idBase, 'mass')} hidden={tab !== 'mass'}>
        <MassOrderForm />
      </div>
    </div>
  );
}

function ServiceDetails({ service: s, money }: { service: Service; money: DisplayMoney }) {
  return (
    <section className="card p-5" aria-label="Service details">
      <div className="flex items-start gap-3">
        <PlatformBadge platform={s.platform} className="h-10 w-10 text-xs" />
        <div className="min-w-0">
          <p className="text-xs text-slate-500">
            #{s.id} · {s.category}
          </p>
          <h2 className="font-semibold text-slate-900">{s.name}</h2>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-xl bg-slate-50 p-3">
          <dt className="text-xs text-slate-500">Price {rateUnit(s)}</dt>
          <dd className="font-semibold text-slate-900">{money.formatPrecise(s.rate)}</dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-3">
          <dt className="text-xs text-slate-500">Average time</dt>
          <dd className="font-semibold text-slate-900">{formatDuration(s.averageTimeSeconds)}</dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-3">
          <dt className="text-xs text-slate-500">Min order</dt>
          <dd className="font-semibold text-slate-900">{formatCount(s.min)}</dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-3">
          <dt className="text-xs text-slate-500">Max order</dt>
          <dd className="font-semibold text-slate-900">{formatCount(s.max)}</dd>
        </div>
      </dl>
      <div className="mt-3 flex flex-wrap gap-1.5">
        {s.refill ? <Badge tone="green">Refill available</Badge> : <Badge>No refill</Badge>}
        {s.cancel ? <Badge tone="blue">Cancel available</Badge> : null}
        {s.dripfeed ? <Badge tone="violet">Drip-feed</Badge> : null}
      </div>
      {s.description ? (
        <div className="mt-4 border-t border-slate-100 pt-4">
          <h3 className="text-sm font-semibold text-slate-900">Description</h3>
          <p className="mt-1 text-sm whitespace-pre-line text-slate-600">{s.description}</p>
        </div>
      ) : null}
    </section>
  );
}

function OrderTips() {
  return (
    <section className="card space-y-3 p-5 text-sm text-slate-600" aria-label="Tips">
      <h2 className="font-semibold text-slate-900">Before you order</h2>
      <p className="flex gap-2">
        <Icon name="info" className="h-4 w-4 shrink-0 text-brand-600" /> Make sure the account or post is public.
      </p>
      <p className="flex gap-2">
        <Icon name="clock" className="h-4 w-4 shrink-0 text-brand-600" /> Don&apos;t place a second order for the same link until the first completes.
      </p>
      <p className="flex gap-2">
        <Icon name="wallet" className="h-4 w-4 shrink-0 text-brand-600" /> Unused amounts of cancelled or partial orders return to your wallet.
      </p>
    </section>
  );
}

function OrderForm({ service, money, onChangeService }: { service: Service; money: DisplayMoney; onChangeService: () => void }) {
  const queryClient = useQueryClient();
  const balance = useWalletBalance();
  const spec = typeSpec(service.type);
  const schema = useMemo(() => orderFormSchema(service), [service]);
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors },
  } = useForm<OrderFormValues>({ resolver: zodResolver(schema), defaultValues: EMPTY_ORDER_FORM });
  const values = useWatch({ control }) as OrderFormValues;
  const totals = orderTotals(service, { ...EMPTY_ORDER_FORM, ...values });

  const [sending, setSending] = useState(false);
  const [placed, setPlaced] = useState<{ id?: string | number; charge?: string } | null>(null);
  // One key per submission: reused only to retry the same submission after a dropped connection.
  const keyRef = useRef<string | null>(null);
  const sendingRef = useRef(false);
  const valuesKey = JSON.stringify(values);
  useEffect(() => {
    keyRef.current = null; // the form changed: a new submission
  }, [valuesKey]);

  const balanceKobo = balance.data !== undefined ? nairaToKobo(balance.data.toFixed(2)) : null;
  const chargeEquivalent = totals.chargeKobo > 0n ? money.equivalent(koboToNaira(totals.chargeKobo)) : null;
  const insufficient = balanceKobo !== null && totals.chargeKobo > 0n && totals.chargeKobo > balanceKobo;

  const onValid = async (v: OrderFormValues) => {
    if (sendingRef.current) return;
    sendingRef.current = true;
    setSending(true);
    keyRef.current ??= newIdempotencyKey();
    try {
      const res = await placeOrder(toOrderBody(service, v), keyRef.current);
      keyRef.current = null;
      toast.success(res?.message || 'Order placed successfully');
      setPlaced({ id: res?.data?.id, charge: res?.data?.charge });
      reset(EMPTY_ORDER_FORM);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    } catch (error) {
      // Keep the key only when no answer arrived (the order may exist): a retry is the same submission.
      if (!(isApiError(error) && error.status === null)) keyRef.current = null;
      handleApiError(error);
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  };

  const linkText = linkFieldText(service);
  const fieldOrder = ['link', 'quantity', ...spec.extras, 'runs', 'interval'] as Array<keyof OrderFormValues>;
  const dripFeed = canDripFeed(service);

  return (
    <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, fieldOrder))} className="space-y-4">
      <div className="flex items-center gap-3 rounded-xl border border-brand-200 bg-brand-50/60 p-3">
        <PlatformBadge platform={service.platform} className="h-9 w-9 text-[10px]" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold text-slate-900">{service.name}</p>
          <p className="text-xs text-slate-600">
            {money.formatPrecise(service.rate)} {rateUnit(service)} · min {abbreviateNumber(service.min)} · max {abbreviateNumber(service.max)}
          </p>
        </div>
        <button type="button" className="btn-sm btn-secondary" onClick={onChangeService}>
          Change
        </button>
      </div>

      {placed ? (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          <Icon name="checkCircle" className="h-5 w-5 shrink-0" />
          <p>
            Order {placed.id ? <strong>#{placed.id}</strong> : null} placed{placed.charge ? ` for ${formatAmount(placed.charge)}` : ''}.{' '}
            <Link to="/user/orders" className="font-semibold underline">
              Track it in Orders
            </Link>
          </p>
        </div>
      ) : null}

      <TextField
        label={linkText.label}
        type={linkText.byUsername ? 'text' : 'url'}
        inputMode={linkText.byUsername ? 'text' : 'url'}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={linkText.placeholder}
        hint={linkText.hint}
        error={errors.link?.message}
        {...register('link')}
      />

      {spec.quantity === 'input' ? (
        <TextField
          label="Quantity"
          inputMode="numeric"
          autoComplete="off"
          placeholder={`${formatCount(service.min)} – ${formatCount(service.max)}`}
          hint={`Min ${formatCount(service.min)} · Max ${formatCount(service.max)}`}
          error={errors.quantity?.message}
          {...register('quantity')}
        />
      ) : null}
      {spec.quantity === 'package' ? (
        <p className="text-sm text-slate-600">Each order is one package, for {money.formatPrecise(service.rate)}. For more, place another order.</p>
      ) : null}

      {spec.extras.map((f) => {
        const meta = FIELD_LABELS[f];
        if (f === 'delay') {
          return (
            <SelectField key={f} label={meta.label} error={errors.delay?.message} {...register('delay')}>
              {SUBSCRIPTION_DELAYS.map((d) => (
                <option key={d} value={String(d)}>
                  {d === 0 ? 'No delay' : `${d} minutes`}
                </option>
              ))}
            </SelectField>
          );
        }
        const isQuantity = f === spec.quantity;
        const hint = isQuantity ? `${meta.hint ?? ''} Min ${formatCount(service.min)} · Max ${formatCount(service.max)}.` : meta.hint;
        return meta.multiline ? (
          <TextAreaField key={f} label={meta.label} hint={hint} rows={5} error={errors[f]?.message} {...register(f)} />
        ) : (
          <TextField key={f} label={meta.label} hint={hint} placeholder={meta.placeholder} inputMode={meta.numeric ? 'numeric' : undefined} error={errors[f]?.message} {...register(f)} />
        );
      })}

      {dripFeed ? (
        <fieldset className="rounded-xl border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-700">Drip-feed</legend>
          <label className="flex cursor-pointer items-center gap-2.5 text-sm text-slate-700">
            <input type="checkbox" className="h-4 w-4 rounded accent-brand-600" {...register('dripfeed')} />
            Deliver in several runs
          </label>
          {values.dripfeed ? (
            <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
              <TextField label="Runs" inputMode="numeric" placeholder="e.g. 5" error={errors.runs?.message} {...register('runs')} />
              <TextField label="Interval (minutes)" inputMode="numeric" placeholder="e.g. 30" error={errors.interval?.message} {...register('interval')} />
            </div>
          ) : null}
        </fieldset>
      ) : null}

      <div className="rounded-xl bg-slate-50 p-4">
        <div className="flex items-baseline justify-between gap-3">
          <span className="text-sm text-slate-600">
            Charge
            {Number.isFinite(totals.totalQuantity) && totals.totalQuantity > 0 ? <span className="text-slate-500"> · {formatCount(totals.totalQuantity)} total</span> : null}
          </span>
          <output className="text-xl font-bold text-slate-900 tabular-nums" aria-live="polite">
            {formatKobo(totals.chargeKobo)}
          </output>
        </div>
        {chargeEquivalent ? <p className="text-right text-xs text-slate-500 tabular-nums">≈ {chargeEquivalent}</p> : null}
        <div className="mt-1 flex items-baseline justify-between gap-3 text-sm">
          <span className="text-slate-600">Your balance</span>
          {balance.isPending ? <Skeleton className="h-4 w-20" /> : <span className="text-slate-800 tabular-nums">{formatAmount(balance.data ?? 0)}</span>}
        </div>
        {insufficient && balanceKobo !== null ? (
          <p role="alert" className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-amber-50 p-2.5 text-sm text-amber-900">
            <Icon name="alert" className="h-4 w-4" />
            Insufficient balance — you need {formatKobo(totals.chargeKobo - balanceKobo)} more.
            <Link to="/user/add-fund" className="font-semibold underline">
              Add funds
            </Link>
          </p>
        ) : null}
      </div>

      <button type="submit" className="btn btn-primary w-full" disabled={sending || insufficient}>
        {sending ? <Spinner label="Placing order" /> : <Icon name="cart" />}
        {sending ? 'Placing order…' : 'Place order'}
      </button>
    </form>
  );
}

function MassOrderForm() {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [results, setResults] = useState<MassOrderResult[] | null>(null);
  const keyRef = useRef<string | null>(null);
  const lines = useMemo(() => parseMassOrderLines(text), [text]);
  const bad = lines.filter((l) => l.error);

  useEffect(() => {
    keyRef.current = null;
  }, [text]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (sending) return;
    const parsed = massOrderSchema.safeParse({ orders: text });
    const message = !parsed.success ? (parsed.error.issues[0]?.message ?? 'Enter at least one order') : bad.length ? `Line ${bad[0].line}: ${bad[0].error}` : null;
    setError(message);
    if (message) {
      toast.error(message);
      return;
    }
    setSending(true);
    keyRef.current ??= newIdempotencyKey();
    try {
      const res = await massOrder(lines.map((l) => `${l.serviceId}|${l.link}|${l.quantity}`).join('\n'), keyRef.current);
      keyRef.current = null;
      const list = Array.isArray(res?.results) ? res.results : [];
      setResults(list);
      const ok = list.filter((r) => r.ok).length;
      if (ok) toast.success(`${ok} of ${list.length} orders placed`);
      else toast.error('No orders were placed');
      if (ok) {
        setText('');
        void queryClient.invalidateQueries({ queryKey: walletKeys.all });
        void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      }
    } catch (err) {
      if (!(isApiError(err) && err.status === null)) keyRef.current = null;
      handleApiError(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <form noValidate onSubmit={submit} className="card space-y-4 p-4 sm:p-6" aria-label="Mass order">
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
            {bad.length ? <span className="text-rose-600"> · {bad.length} with problems</span> : null}
          </span>
        </div>
        {bad.length ? (
          <ul className="space-y-1 rounded-xl bg-rose-50 p-3 text-sm text-rose-800">
            {bad.slice(0, 5).map((l) => (
              <li key={l.line}>
                Line {l.line}: {l.error}
              </li>
            ))}
            {bad.length > 5 ? <li>…and {bad.length - 5} more</li> : null}
          </ul>
        ) : null}
        <button type="submit" className="btn btn-primary w-full" disabled={sending || lines.length === 0}>
          {sending ? <Spinner label="Placing orders" /> : <Icon name="stack" />}
          {sending ? 'Placing orders…' : 'Place orders'}
        </button>
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
                <span>
                  Line {r.line}: {r.ok ? `order #${r.orderId ?? '—'} placed` : (r.error ?? 'failed')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </aside>
    </div>
  );
}
