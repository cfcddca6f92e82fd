// The sandbox checkout page the payment fakes share: the card a payer sees on a provider's test
// checkout, with Pay and Decline buttons that post the outcome back to the same address.

import { formatScaled } from '../../worker/lib/decimal';
import { escapeHtml } from './http';

export interface CheckoutBrand {
  /** "Paystack", "Flutterwave". */
  name: string;
  /** The provider's button colour. */
  accent: string;
  /** The provider's documented test card, as a hint. */
  testCard: string;
}

/** Kobo as naira with thousands separators: 123456789 -> "1,234,567.89". */
export function formatAmount(kobo: number): string {
  const [whole, fraction] = formatScaled(BigInt(kobo), 2, 2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** The checkout of an unpaid transaction. */
export function paymentForm(brand: CheckoutBrand, payment: { email: string; currency: string; amountKobo: number; reference: string }): string {
  const amount = `${payment.currency} ${formatAmount(payment.amountKobo)}`;
  return `
    <p class="email">${escapeHtml(payment.email)}</p>
    <p class="amount">Pay <strong>${amount}</strong></p>
    <div class="card-hint">${escapeHtml(brand.testCard)}</div>
    <form method="post"><input type="hidden" name="outcome" value="success"><button class="pay" type="submit">Pay ${amount}</button></form>
    <form method="post"><input type="hidden" name="outcome" value="failed"><button class="decline" type="submit">Decline</button></form>
    <p class="ref">Reference: ${escapeHtml(payment.reference)}</p>`;
}

/** The checkout of a transaction already paid or declined, with the way back to the merchant where there is one. */
export function alreadyProcessedPage(brand: CheckoutBrand, { declined, returnUrl }: { declined: boolean; returnUrl: string | null }): string {
  const back = returnUrl ? `<p><a class="link" href="${escapeHtml(returnUrl)}">Return to merchant</a></p>` : '';
  return checkoutPage(brand, {
    title: 'Transaction already processed',
    body: `<p>This payment was already ${declined ? 'declined' : 'completed'}.</p>${back}`,
  });
}

export function checkoutPage(brand: CheckoutBrand, { title, body }: { title: string; body: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(brand.name)} sandbox</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f3f5f8; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b2733; }
  main { width: min(380px, 92vw); background: #fff; border-radius: 12px; box-shadow: 0 8px 30px rgba(20, 40, 70, .12); padding: 28px; }
  .badge { display: inline-block; font-size: 12px; font-weight: 600; letter-spacing: .04em; text-transform: uppercase; color: #0b7a4b; background: #e3f7ee; border-radius: 999px; padding: 3px 10px; }
  h1 { font-size: 20px; margin: 14px 0 6px; }
  .email { color: #5b6b7b; margin: 0; }
  .amount { font-size: 17px; margin: 6px 0 18px; }
  .card-hint { font-size: 13px; color: #5b6b7b; background: #f7f9fb; border: 1px dashed #cfd8e3; border-radius: 8px; padding: 8px 10px; margin-bottom: 18px; }
  form { margin: 0 0 10px; }
  button { width: 100%; border: 0; border-radius: 8px; padding: 12px; font-size: 15px; font-weight: 600; cursor: pointer; }
  .pay { background: ${brand.accent}; color: #fff; }
  .pay:hover { filter: brightness(.93); }
  .decline { background: #fff; color: #c0392b; border: 1px solid #e6b0aa; }
  .ref { font-size: 12px; color: #8a99a8; margin: 14px 0 0; word-break: break-all; }
  .link { color: ${brand.accent}; }
</style></head>
<body><main><span class="badge">${escapeHtml(brand.name)} sandbox</span><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}
