import type { PaymentProviderName } from '../../providers/payments/types';

/** A deposit just credited to a wallet, as what follows it (commission, notification) needs it. */
export interface CreditedDeposit {
  intentId: number;
  userId: number;
  amountKobo: bigint;
  /** The intent's reference: ours for a card payment, the provider's for a bank transfer. */
  reference: string;
  channel: 'card' | 'bank_transfer';
  provider: PaymentProviderName;
}
