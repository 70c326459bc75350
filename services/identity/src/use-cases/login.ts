import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError, validationFailed } from '@inventory/platform';
import { hashPassword, verifyPassword } from '../domain/password.js';
import { newOpaqueToken, sha256Hex } from '../domain/secrets.js';
import { messages, Violations } from '../domain/validation.js';
import type { SessionRepository } from '../store/session-repository.js';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';
import { twoFactorRefusal, type SecondFactor } from './second-factor.js';

export const BAD_CREDENTIALS = 'These credentials do not match our records.';

// Verifying against a throwaway hash when the email is unknown keeps both paths equally slow.
let decoyHash: Promise<string> | undefined;

export interface OpenedSession {
  sessionToken: string;
  csrfToken: string;
  user: UserDocument;
  expiresAt: Date;
}

export interface LoginInput {
  email: string;
  password: string;
  twoFactorCode?: string;
}

/**
 * Opens a web session. Wrong credentials and a wrong second factor are both
 * 422 with reason `invalid_credentials` so the gateway can count failures.
 */
export class Login {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly secondFactor: SecondFactor,
    private readonly sessionTtlMinutes: number,
  ) {}

  async execute(tenantId: string, input: LoginInput): Promise<OpenedSession> {
    const violations = new Violations();
    if (!input.email.trim()) violations.add('email', messages.required('email'));
    if (!input.password) violations.add('password', messages.required('password'));
    if (!violations.empty) throw validationFailed(violations.list);

    const user =
      input.email.length <= 255 ? await this.users.findByEmail(tenantId, input.email.trim()) : null;
    decoyHash ??= hashPassword('decoy-password');
    const valid = await verifyPassword(
      input.password.slice(0, 1024),
      user?.password_hash ?? (await decoyHash),
    );
    if (!user || !valid) throw invalidCredentials('email', BAD_CREDENTIALS);
    if (user.two_factor_enabled) {
      if (!input.twoFactorCode)
        throw validationFailed([
          { field: 'two_factor_code', description: messages.required('two_factor_code') },
        ]);
      const outcome = await this.secondFactor.verify(user, input.twoFactorCode);
      if (outcome !== 'ok') throw invalidCredentials('two_factor_code', twoFactorRefusal(outcome));
    }

    const sessionToken = newOpaqueToken();
    const csrfToken = newOpaqueToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.sessionTtlMinutes * 60_000);
    await this.sessions.create({
      tenant_id: tenantId,
      id_hash: sha256Hex(sessionToken),
      user_id: user.id,
      csrf_hash: sha256Hex(csrfToken),
      expires_at: expiresAt,
      created_at: now,
    });
    return { sessionToken, csrfToken, user, expiresAt };
  }
}

function invalidCredentials(field: string, message: string): AppError {
  return new AppError(GrpcStatus.INVALID_ARGUMENT, 'invalid_credentials', message, [
    { field, description: message },
  ]);
}
