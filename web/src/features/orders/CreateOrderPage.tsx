// /user/create-order: pick a service and order it (OrderForm.tsx: the fields its type needs and
// the exact charge, agreed before paying), or send many "serviceId|link|quantity" lines at once
// on the "Mass order" tab (MassOrderForm.tsx).
// Prices show in the visitor's display currency; what the order costs (charge, balance check,
// shortfall, the placed order's charge) stays in NGN, the charge with the converted equivalent.

import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { type Service, serviceByIdQuery } from '@/api/catalogue';
import { Icon } from '@/components/Icon';
import { ServiceHeading } from '@/components/ServiceHeading';
import { Skeleton } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { forgetChosenService } from '@/lib/chosenService';
import { type DisplayMoney, useDisplayCurrency } from '@/lib/displayCurrency';
import { formatCount, formatDuration } from '@/lib/format';
import { rateUnit } from '@/lib/serviceTypes';
import type { OrderFormStart } from './OrderForm';
import { ServicePicker } from './ServicePicker';

// The forms come when they are needed (a service picked, the Mass order tab opened), asked for as soon
// as the person reaches for them: the page paints and answers without their code and schemas.
const loadOrderForm = () => import('./OrderForm');
const loadMassOrderForm = () => import('./MassOrderForm');
const OrderForm = lazy(() => loadOrderForm().then((module) => ({ default: module.OrderForm })));
const MassOrderForm = lazy(() => loadMassOrderForm().then((module) => ({ default: module.MassOrderForm })));

function FormLoading() {
  return (
    <div className="space-y-3" role="status" aria-label="Loading the form">
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

type TabKey = 'single' | 'mass';
const TABS = [
  { key: 'single', label: 'New order' },
  { key: 'mass', label: 'Mass order' },
] as const;

const MAX_START_LINK = 2000;

/** ?link= and ?quantity= as "Order again" sends them: kept only when they could be a link and a whole number. */
function useOrderFormStart(): OrderFormStart {
  const [params] = useSearchParams();
  const link = params.get('link')?.trim() ?? '';
  const quantity = params.get('quantity')?.trim() ?? '';
  return {
    ...(link && link.length <= MAX_START_LINK ? { link } : {}),
    ...(/^[1-9]\d{0,9}$/.test(quantity) ? { quantity } : {}),
  };
}

/** The service named by router state, or by ?service=<id> (looked up through the search). */
function usePreselectedService(): { service: Service | null; loading: boolean } {
  const location = useLocation();
  const [params] = useSearchParams();
  const fromState = (location.state as { service?: Service } | null)?.service ?? null;
  const id = params.get('service');
  const lookup = useQuery({ ...serviceByIdQuery(id ?? ''), enabled: !fromState && Boolean(id) });
  if (fromState && (!id || String(fromState.id) === id)) return { service: fromState, loading: false };
  return { service: lookup.data ?? null, loading: lookup.isLoading };
}

export default function CreateOrderPage() {
  const idBase = useId();
  const [tab, setTab] = useState<TabKey>('single');
  const money = useDisplayCurrency();
  const preselected = usePreselectedService();
  const start = useOrderFormStart();
  const [service, setService] = useState<Service | null>(null);
  const [picking, setPicking] = useState(true);
  const [massOpened, setMassOpened] = useState(false);

  // A service named by the link (Order again, a favourite, the catalogue) opens the form at once.
  const formWanted = preselected.loading || preselected.service !== null;
  useEffect(() => {
    if (formWanted) void loadOrderForm();
  }, [formWanted]);
  // A service chosen before signing up has brought the customer here: a later sign-in goes to their own area.
  useEffect(forgetChosenService, []);

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
        <div onPointerEnter={() => void loadMassOrderForm()} onFocusCapture={() => void loadMassOrderForm()}>
          <Tabs
            idBase={idBase}
            label="Order type"
            tabs={TABS}
            active={tab}
            onChange={(next) => {
              setTab(next);
              if (next === 'mass') setMassOpened(true);
            }}
          />
        </div>
      </div>

      <div {...tabPanelProps(idBase, 'single')} hidden={tab !== 'single'}>
        <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <section
            className="card p-4 sm:p-6"
            aria-label="Service"
            onPointerDownCapture={() => void loadOrderForm()}
            onFocusCapture={() => void loadOrderForm()}
          >
            {preselected.loading ? (
              <div className="space-y-3" role="status" aria-label="Loading service">
                <Skeleton className="h-10 w-full" />
                <Skeleton className="h-24 w-full" />
              </div>
            ) : picking || !service ? (
              <>
                {service ? (
                  <div className="mb-3 flex justify-end">
                    {/* The whole name, wrapped: two similar services may differ only past its first words. */}
                    <button type="button" className="btn-sm btn-ghost max-w-full text-left break-words" onClick={() => setPicking(false)}>
                      Keep {service.name}
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
              <Suspense fallback={<FormLoading />}>
                <OrderForm
                  key={String(service.id)}
                  service={service}
                  money={money}
                  onChangeService={() => setPicking(true)}
                  start={service.id === preselected.service?.id ? start : undefined}
                />
              </Suspense>
            )}
          </section>
          <aside className="space-y-4">{service && !picking ? <ServiceDetails service={service} money={money} /> : <OrderTips />}</aside>
        </div>
      </div>

      <div {...tabPanelProps(idBase, 'mass')} hidden={tab !== 'mass'}>
        {/* Mounted from the first visit on, so what was typed there stays when the person switches tabs. */}
        {massOpened ? (
          <Suspense fallback={<FormLoading />}>
            <MassOrderForm />
          </Suspense>
        ) : null}
      </div>
    </div>
  );
}

function ServiceDetails({ service: s, money }: { service: Service; money: DisplayMoney }) {
  return (
    <section className="card p-5" aria-label="Service details">
      <ServiceHeading service={s} badgeClassName="h-10 w-10 text-xs" />
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
