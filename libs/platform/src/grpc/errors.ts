import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { BadRequest, ErrorInfo } from '@inventory/contracts/google/rpc/error_details.js';
import { Status } from '@inventory/contracts/google/rpc/status.js';

const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';
const DETAILS_KEY = 'grpc-status-details-bin';
const ERROR_DOMAIN = 'inventory';

export interface FieldViolation {
  field: string;
  description: string;
}

/**
 * The only errors handlers throw on purpose. Each carries a gRPC code, a stable
 * reason (see proto/common/v1/errors.proto) and, for validation, the fields at
 * fault. Anything else reaching the server boundary becomes INTERNAL.
 */
export class AppError extends Error {
  constructor(
    readonly code: GrpcStatus,
    readonly reason: string,
    message: string,
    readonly fieldViolations: FieldViolation[] = [],
    readonly metadata: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message = 'Record not found.') =>
  new AppError(GrpcStatus.NOT_FOUND, 'not_found', message);

export const validationFailed = (violations: FieldViolation[], message?: string) =>
  new AppError(
    GrpcStatus.INVALID_ARGUMENT,
    'validation_failed',
    message ?? violations[0]?.description ?? 'The given data was invalid.',
    violations,
  );

/** A business rule refused the request; `reason` is the specification's stable `code`. */
export const failedPrecondition = (
  reason: string,
  message: string,
  metadata: Record<string, string> = {},
) => new AppError(GrpcStatus.FAILED_PRECONDITION, reason, message, [], metadata);

export const alreadyExists = (message: string, violations: FieldViolation[] = []) =>
  new AppError(GrpcStatus.ALREADY_EXISTS, 'already_exists', message, violations);

export const permissionDenied = (message: string, reason = 'permission_denied') =>
  new AppError(GrpcStatus.PERMISSION_DENIED, reason, message);

export const unauthenticated = (message = 'Unauthenticated.') =>
  new AppError(GrpcStatus.UNAUTHENTICATED, 'unauthenticated', message);

export const unavailable = (reason: string, message: string) =>
  new AppError(GrpcStatus.UNAVAILABLE, reason, message);

/** Builds the ServiceError a handler callback receives, details in the standard trailer. */
export function toServiceError(error: AppError): Partial<ServiceError> {
  const details = [
    {
      type_url: ERROR_INFO_TYPE,
      value: Buffer.from(
        ErrorInfo.encode({
          reason: error.reason,
          domain: ERROR_DOMAIN,
          metadata: error.metadata,
        }).finish(),
      ),
    },
  ];
  if (error.fieldViolations.length > 0) {
    details.push({
      type_url: BAD_REQUEST_TYPE,
      value: Buffer.from(BadRequest.encode({ field_violations: error.fieldViolations }).finish()),
    });
  }
  const metadata = new Metadata();
  metadata.set(
    DETAILS_KEY,
    Buffer.from(Status.encode({ code: error.code, message: error.message, details }).finish()),
  );
  return { code: error.code, details: error.message, metadata };
}

export interface DecodedGrpcError {
  code: GrpcStatus;
  message: string;
  reason?: string;
  fieldViolations: FieldViolation[];
  metadata: Record<string, string>;
}

/** Reads code, reason and field violations back out of an error a client received. */
export function decodeGrpcError(error: Partial<ServiceError>): DecodedGrpcError {
  const decoded: DecodedGrpcError = {
    code: error.code ?? GrpcStatus.UNKNOWN,
    message: error.details ?? error.message ?? 'Unknown error',
    fieldViolations: [],
    metadata: {},
  };
  const raw = error.metadata?.get(DETAILS_KEY)[0];
  if (!raw || typeof raw === 'string') return decoded;
  try {
    const statusProto = Status.decode(raw);
    for (const detail of statusProto.details) {
      if (detail.type_url === ERROR_INFO_TYPE) {
        const info = ErrorInfo.decode(detail.value);
        decoded.reason = info.reason;
        decoded.metadata = info.metadata;
      } else if (detail.type_url === BAD_REQUEST_TYPE) {
        decoded.fieldViolations = BadRequest.decode(detail.value).field_violations;
      }
    }
  } catch {
    // Undecodable details leave the plain code and message, which still map to a status.
  }
  return decoded;
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number';
}
