// The single order form for one chosen service: the fields its type needs, the exact charge
// (ceil(rateKobo × quantity / 1000)) and the balance check before ordering. One Idempotency-Key
// per submission, so a double click or a retry after a dropped connection places one order.
// The charge shown is the charge agreed: it is sent with the order, and when the price moved
// meanwhile (markup, provider cost, exchange rate) nothing is placed until the customer confirms
// the new one. A refusal of the link shows under the link field.

import { zodResolver } from '@hookform/resolvers/zod';
import { isLinkMessage, SUBSCRIPTION_DELAYS } from '@schemas/order-constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type FieldErrors, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { nairaToKobo, type Service } from '@/api/catalogue';
import { orderKeys } from '@/api/orders';
import { useWalletBalance, useWalletDebt, walletKeys } from '@/api/wallet';
import { SelectField, TextAreaField, TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { PlatformBadge } from '@/components/PlatformBadge';
import { Spinner } from '@/components/Spinner';
import { StarButton } from '@/components/StarButton';
import { getErrorMessage, handleApiError, isApiError } from '@/lib/api';
import type { DisplayMoney } from '@/lib/displayCurrency';
import { abbreviateNumber, formatAmount, formatCount, formatKobo, koboToNaira } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { newIdempotencyKey } from '@/lib/hooks';
import { rateUnit, typeSpec } from '@/lib/serviceTypes';
import { toast } from '@/lib/toast';
import { newPrice, placeOrder } from './api/place-order';
import { ChargeSummary, type PriceChange, PriceChangedAlert } from './OrderCharge';
import {
  canDripFeed,
  EMPTY_ORDER_FORM,
  expiryAsTyped,
  FIELD_LABELS,
  linkFieldText,
  type OrderFormValues,
  orderFormSchema,
  orderTotals,
  toOrderBody,
} from './orderFields';

/** The link and quantity to start from ("Order again" from Favorites); the customer still checks and sends. */
export interface OrderFormStart {
  link?: string;
  quantity?: string;
}

export function OrderForm({
  service,
  money,
  onChangeService,
  start,
}: {
  service: Service;
  money: DisplayMoney;
  onChangeService: () => void;
  start?: OrderFormStart;
}) {
  const queryClient = useQueryClient();
  const balance = useWalletBalance();
  const debt = useWalletDebt();
  const spec = typeSpec(service.type);
  const schema = useMemo(() => orderFormSchema(service), [service]);
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    formState: { errors },
  } = useForm<OrderFormValues>({ resolver: zodResolver(schema), defaultValues: { ...EMPTY_ORDER_FORM, ...start } });
  const values = useWatch({ control }) as OrderFormValues;
  const totals = orderTotals(service, { ...EMPTY_ORDER_FORM, ...values });

  const [sending, setSending] = useState(false);
  const [placed, setPlaced] = useState<{ id: number; charge: string } | null>(null);
  const [priceChange, setPriceChange] = useState<PriceChange | null>(null);
  // One key per submission: reused only to retry the same submission after a dropped connection.
  const keyRef = useRef<string | null>(null);
  const sendingRef = useRef(false);
  const valuesKey = JSON.stringify(values);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the values are the trigger, not an input: a changed form is a new submission, priced as shown again
  useEffect(() => {
    keyRef.current = null;
    setPriceChange(null);
  }, [valuesKey]);

  const chargeKobo = priceChange ? nairaToKobo(priceChange.now) : totals.chargeKobo;
  const balanceKobo = balance.data !== undefined ? nairaToKobo(balance.data.toFixed(2)) : null;
  const chargeEquivalent = chargeKobo > 0n ? money.equivalent(koboToNaira(chargeKobo)) : null;
  // What a reversed card payment left owing. The Worker refuses every order while any is owed, and a
  // deposit pays it first (settleDebt): the order is placed once balance + deposit covers debt + charge.
  const debtKobo = debt.data ? nairaToKobo(debt.data.toFixed(2)) : 0n;
  const owes = debtKobo > 0n;
  const neededKobo = balanceKobo === null ? null : chargeKobo + debtKobo - balanceKobo;
  const insufficient = neededKobo !== null && chargeKobo > 0n && neededKobo > 0n;

  /** Places the order at `expectedCharge` (naira text): the charge on screen, or the new one the customer confirmed. */
  const send = async (v: OrderFormValues, expectedCharge: string) => {
    if (sendingRef.current) return;
    sendingRef.current = true;
    setSending(true);
    keyRef.current ??= newIdempotencyKey();
    try {
      const res = await placeOrder({ ...toOrderBody(service, v), expectedCharge }, keyRef.current);
      keyRef.current = null;
      toast.success(res.message || 'Order placed successfully');
      setPlaced({ id: res.data.id, charge: res.data.charge });
      reset(EMPTY_ORDER_FORM);
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    } catch (error) {
      const now = newPrice(error, 'charge');
      // Keep the key when no answer arrived (the order may exist) or the price moved (nothing was
      // written, and confirming the new price is the same submission): a retry is never a second order.
      if (!(isApiError(error) && error.status === null) && now === null) keyRef.current = null;
      if (now !== null) {
        setPriceChange({ shownKobo: nairaToKobo(expectedCharge), now });
        // The catalogue's prices are out of date too.
        void queryClient.invalidateQueries({ queryKey: ['services'] });
      } else if (isApiError(error) && (error.status === 400 || error.status === 422) && isLinkMessage(getErrorMessage(error))) {
        setError('link', { message: getErrorMessage(error) }, { shouldFocus: true });
        handleApiError(error);
      } else {
        handleApiError(error);
      }
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  };

  const linkText = linkFieldText(service);
  const fieldOrder = ['link', 'quantity', ...spec.extras, 'runs', 'interval'] as Array<keyof OrderFormValues>;
  const onInvalid = (e: FieldErrors<OrderFormValues>) => toastFirstError(e, fieldOrder);
  const dripFeed = canDripFeed(service);

  return (
    <form noValidate onSubmit={handleSubmit((v) => send(v, koboToNaira(totals.chargeKobo)), onInvalid)} className="space-y-4">
      {/* The whole name, wrapped: services that differ only towards the end of their names stay told apart, on a phone too. */}
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2 rounded-xl border border-brand-200 bg-brand-50/60 p-3">
        <PlatformBadge platform={service.platform} className="h-9 w-9 text-[10px]" />
        <div className="min-w-0 flex-1 basis-40">
          <p className="text-sm font-semibold break-words text-slate-900">{service.name}</p>
          <p className="text-xs text-slate-600">
            {money.formatPrecise(service.rate)} {rateUnit(service)} · min {abbreviateNumber(service.min)} · max {abbreviateNumber(service.max)}
          </p>
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-3">
          <StarButton serviceId={service.id} serviceName={service.name} />
          <button type="button" className="btn-sm btn-secondary" onClick={onChangeService}>
            Change
          </button>
        </div>
      </div>

      {placed ? (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
          <Icon name="checkCircle" className="h-5 w-5 shrink-0" />
          <p>
            Order <strong>#{placed.id}</strong> placed for {formatAmount(placed.charge)}.{' '}
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
        if (f === 'expiry') {
          const expiry = register('expiry');
          return (
            <TextField
              key={f}
              label={meta.label}
              placeholder={meta.placeholder}
              inputMode="numeric"
              maxLength={10}
              error={errors.expiry?.message}
              {...expiry}
              onChange={(event) => {
                event.target.value = expiryAsTyped(event.target.value);
                return expiry.onChange(event);
              }}
            />
          );
        }
        return meta.multiline ? (
          <TextAreaField key={f} label={meta.label} hint={hint} rows={5} error={errors[f]?.message} {...register(f)} />
        ) : (
          <TextField
            key={f}
            label={meta.label}
            hint={hint}
            placeholder={meta.placeholder}
            inputMode={meta.numeric ? 'numeric' : undefined}
            error={errors[f]?.message}
            {...register(f)}
          />
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

      <ChargeSummary
        label="Charge"
        detail={Number.isFinite(totals.totalQuantity) && totals.totalQuantity > 0 ? `${formatCount(totals.totalQuantity)} total` : null}
        amount={
          <>
            {priceChange ? <s className="block text-sm font-normal text-slate-500">{formatKobo(priceChange.shownKobo)}</s> : null}
            {formatKobo(chargeKobo)}
          </>
        }
        equivalent={chargeEquivalent}
      >
        {insufficient || owes ? (
          <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-2.5 text-sm text-amber-900">
            <Icon name="alert" className="mr-1.5 inline h-4 w-4 align-[-0.125em]" />
            {insufficient && neededKobo !== null ? (
              owes ? (
                <>
                  Insufficient balance — you need {formatKobo(neededKobo)} more: the {formatKobo(chargeKobo)} charge and the {formatKobo(debtKobo)} your wallet
                  owes after a card payment was refunded or charged back{balanceKobo ? <>, less your {formatKobo(balanceKobo)} balance</> : null}. Your next
                  deposit settles what is owed first; no order can be placed until it is paid.{' '}
                </>
              ) : (
                <>Insufficient balance — you need {formatKobo(neededKobo)} more. </>
              )
            ) : owes ? (
              <>
                Your wallet owes {formatKobo(debtKobo)} after a card payment was refunded or charged back. Your next deposit settles it first; no order can be
                placed until it is paid.{' '}
              </>
            ) : null}
            <Link to="/user/add-fund" className="font-semibold underline">
              Add funds
            </Link>
          </p>
        ) : null}
      </ChargeSummary>

      {priceChange ? (
        <PriceChangedAlert
          change={priceChange}
          of="order"
          sending={sending}
          disabled={insufficient || owes}
          onConfirm={() => void handleSubmit((v) => send(v, priceChange.now), onInvalid)()}
        />
      ) : (
        <button type="submit" className="btn btn-primary w-full" disabled={sending || insufficient || owes}>
          {sending ? <Spinner label="Placing order" /> : <Icon name="cart" />}
          {sending ? 'Placing order…' : 'Place order'}
        </button>
      )}
    </form>
  );
}
