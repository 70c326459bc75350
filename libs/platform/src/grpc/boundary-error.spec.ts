import { status as GrpcStatus } from '@grpc/grpc-js';
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.js';
import { batchItemError } from './boundary-error.js';
import { AppError } from './errors.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const fields = { grpc_method: 'Batch' };

describe('batchItemError: one item of a batch answered as the single call would be', () => {
  it('keeps a refusal as it was thrown, violations included', () => {
    const refusal = new AppError(GrpcStatus.NOT_FOUND, 'not_found', 'No such instance.', [
      { field: 'integration_instance_id', description: 'unknown' },
    ]);
    expect(batchItemError(refusal, logger, fields)).toEqual({
      code: GrpcStatus.NOT_FOUND,
      reason: 'not_found',
      message: 'No such instance.',
      violations: [{ field: 'integration_instance_id', description: 'unknown' }],
    });
  });

  it('answers an unreachable MongoDB UNAVAILABLE, so the caller retries that item', () => {
    const reset = new mongoose.mongo.MongoNetworkError('connection reset');
    expect(batchItemError(reset, logger, fields)).toMatchObject({
      code: GrpcStatus.UNAVAILABLE,
      reason: 'service_unavailable',
    });
  });

  it('answers a fault INTERNAL without its message', () => {
    expect(batchItemError(new TypeError('secret detail'), logger, fields)).toEqual({
      code: GrpcStatus.INTERNAL,
      reason: '',
      message: 'Internal error',
      violations: [],
    });
  });
});
