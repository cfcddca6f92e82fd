// The error contract. Services throw AppError with a kind (they know nothing of HTTP);
// the app turns it into a status and the JSON body {message, error, code, requestId}: `message` for people,
// `code` for programs (stable, unlike the texts), `requestId` to find the answer's log lines.
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The spec's status fallbacks (section 8); also the default messages of those kinds. */
export const STATUS_MESSAGES = {
  400: 'Bad Request. Please check your input.',
  401: 'Unauthorized. Please log in again.',
  403: 'Forbidden. You do not have permission.',
  404: 'Not Found. The requested resource was not found.',
  500: 'Internal Server Error. Please try again later.',
} as const;

export const REFRESH_TOKEN_INVALID = 'Invalid or expired refresh token.';

const KINDS = {
  invalid: { status: 400, error: 'Bad Request' },
  unauthenticated: { status: 401, error: 'Unauthorized' },
  forbidden: { status: 403, error: 'Forbidden' },
  not_found: { status: 404, error: 'Not Found' },
  /** The reseller API's writes over GET, where the operator refuses them. */
  method_not_allowed: { status: 405, error: 'Method Not Allowed' },
  conflict: { status: 409, error: 'Conflict' },
  /** Well-formed, but contradicts what the request's Idempotency-Key already stands for. */
  unprocessable: { status: 422, error: 'Unprocessable Entity' },
  too_large: { status: 413, error: 'Payload Too Large' },
  unsupported_media: { status: 415, error: 'Unsupported Media Type' },
  rate_limited: { status: 429, error: 'Too Many Requests' },
  unavailable: { status: 503, error: 'Service Unavailable' },
  upstream: { status: 502, error: 'Bad Gateway' },
  internal: { status: 500, error: 'Internal Server Error' },
} as const satisfies Record<string, { status: ContentfulStatusCode; error: string }>;

export type ErrorKind = keyof typeof KINDS;

/** Codes more precise than the kind, for the answers clients act on differently from others of their status. */
export type PreciseErrorCode =
  | 'refresh_token_invalid'
  | 'two_factor_required'
  | 'two_factor_setup_required'
  | 'account_mismatch'
  | 'account_suspended'
  | 'email_unverified'
  | 'price_changed'
  | 'database_unavailable'
  | 'provider_unavailable'
  | 'provider_refused';

export type ErrorCode = ErrorKind | PreciseErrorCode;

export interface ErrorBody {
  message: string;
  error: string;
  code: ErrorCode;
  requestId: string;
}

interface ErrorDetails {
  /** Overrides the reason phrase in the `error` field, which older clients match on. */
  error?: string;
  /** Defaults to the kind. */
  code?: PreciseErrorCode;
}

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  get status(): ContentfulStatusCode {
    return KINDS[this.kind].status;
  }

  get code(): ErrorCode {
    return this.details.code ?? this.kind;
  }

  toBody(requestId: string): ErrorBody {
    return { message: this.message, error: this.details.error ?? KINDS[this.kind].error, code: this.code, requestId };
  }
}

export const invalid = (message: string = STATUS_MESSAGES[400]) => new AppError('invalid', message);
export const unauthenticated = (message: string = STATUS_MESSAGES[401], details?: ErrorDetails) => new AppError('unauthenticated', message, details);
export const forbidden = (message: string = STATUS_MESSAGES[403]) => new AppError('forbidden', message);
export const notFound = (message: string = STATUS_MESSAGES[404]) => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const rateLimited = (message = 'Too many attempts. Please wait a minute and try again.') => new AppError('rate_limited', message);
export const refreshTokenInvalid = () => unauthenticated(REFRESH_TOKEN_INVALID, { error: REFRESH_TOKEN_INVALID, code: 'refresh_token_invalid' });
export const internalError = () => new AppError('internal', STATUS_MESSAGES[500]);
