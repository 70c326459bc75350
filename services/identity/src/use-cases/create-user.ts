import { isDuplicateKeyError, validationFailed } from '@inventory/platform';
import { hashPassword } from '../domain/password.js';
import { PERMISSIONS } from '@inventory/access';
import { EMAIL_PATTERN, messages, Violations } from '../domain/validation.js';
import type { TenantRepository } from '../store/tenant-repository.js';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';

export interface CreateUserInput {
  email: string;
  name: string;
  password: string;
  isOwner: boolean;
  permissions: string[];
}

export class CreateUser {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly users: UserRepository,
  ) {}

  async execute(tenantId: string, input: CreateUserInput): Promise<UserDocument> {
    const violations = new Violations();
    const email = input.email.trim().toLowerCase();
    if (!email) violations.add('email', messages.required('email'));
    else if (email.length > 255 || !EMAIL_PATTERN.test(email))
      violations.add('email', messages.email('email'));
    if (!input.name.trim()) violations.add('name', messages.required('name'));
    else if (input.name.length > 255) violations.add('name', messages.maxString('name', 255));
    if (!input.password) violations.add('password', messages.required('password'));
    else if (input.password.length < 8)
      violations.add('password', messages.minString('password', 8));
    else if (input.password.length > 1024)
      violations.add('password', messages.maxString('password', 1024));
    input.permissions.forEach((permission, index) => {
      if (!PERMISSIONS.includes(permission))
        violations.add(`permissions.${index}`, messages.invalid(`permissions.${index}`));
    });
    if (!violations.empty) throw validationFailed(violations.list);
    if (!(await this.tenants.findById(tenantId)))
      throw validationFailed([{ field: 'tenant', description: 'The tenant does not exist.' }]);

    const now = new Date();
    const user: UserDocument = {
      tenant_id: tenantId,
      id: await this.users.nextId(),
      email,
      name: input.name.trim(),
      password_hash: await hashPassword(input.password),
      is_owner: input.isOwner,
      permissions: [...new Set(input.permissions)],
      two_factor_enabled: false,
      two_factor_secret: null,
      two_factor_pending_secret: null,
      two_factor_recovery_hashes: [],
      two_factor_last_step: 0,
      token_version: 0,
      token_lock_owner: null,
      token_lock_until: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.users.create(user);
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw validationFailed([{ field: 'email', description: messages.taken('email') }]);
      throw error;
    }
    return user;
  }
}
