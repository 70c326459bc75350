import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError, validationFailed } from '@inventory/platform';
import type { UserDocument } from '../store/user.js';
import type { GetUser } from './get-user.js';

/** The most users one batched look-up may name. */
export const MAX_BATCH_USERS = 500;

/** Several profiles at once (the gateway's batched `GET /api/user`); unknown ids are left out. */
export class GetUsers {
  constructor(private readonly getUser: GetUser) {}

  async execute(tenantId: string, userIds: number[]): Promise<UserDocument[]> {
    if (userIds.length > MAX_BATCH_USERS)
      throw validationFailed([
        { field: 'user_ids', description: `At most ${MAX_BATCH_USERS} users per call.` },
      ]);
    const unique = [...new Set(userIds)];
    const found = await Promise.all(
      unique.map((userId) =>
        this.getUser.execute(tenantId, userId).catch((error: unknown) => {
          if (error instanceof AppError && error.code === GrpcStatus.NOT_FOUND) return undefined;
          throw error;
        }),
      ),
    );
    return found.filter((user): user is UserDocument => user !== undefined);
  }
}
