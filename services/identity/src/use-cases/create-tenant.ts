import { isDuplicateKeyError, validationFailed } from '@inventory/platform';
import { messages, Violations } from '../domain/validation.js';
import type { TenantWithDomains } from '../store/tenant.js';
import type { TenantRepository } from '../store/tenant-repository.js';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/;

export interface CreateTenantInput {
  slug: string;
  name?: string;
  customDomains?: string[];
}

/** A tenant answers on <slug>.<BASE_DOMAIN> and on each of its custom domains. */
export class CreateTenant {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly baseDomain: string,
  ) {}

  async execute(input: CreateTenantInput): Promise<TenantWithDomains> {
    const violations = new Violations();
    const slug = input.slug.trim().toLowerCase();
    if (!slug) violations.add('slug', messages.required('slug'));
    else if (!SLUG.test(slug)) violations.add('slug', messages.format('slug'));
    const domains = [`${slug}.${this.baseDomain}`.toLowerCase()];
    (input.customDomains ?? []).forEach((domain, index) => {
      const host = domain.trim().toLowerCase();
      if (!HOST.test(host))
        violations.add(`custom_domains.${index}`, messages.format(`custom_domains.${index}`));
      else if (!domains.includes(host)) domains.push(host);
    });
    if (!violations.empty) throw validationFailed(violations.list);

    if (await this.tenants.slugTaken(slug))
      throw validationFailed([{ field: 'slug', description: messages.taken('slug') }]);
    const taken = await this.tenants.findTakenDomain(domains);
    if (taken)
      throw validationFailed([
        { field: 'custom_domains', description: `The domain ${taken} has already been taken.` },
      ]);

    const tenant = {
      tenant_id: await this.tenants.nextId(),
      slug,
      name: input.name?.trim() || slug,
      created_at: new Date(),
    };
    try {
      await this.tenants.create(tenant, domains);
    } catch (error) {
      // Lost a race for the slug or a domain (the repository left nothing half-made).
      if (isDuplicateKeyError(error))
        throw validationFailed([{ field: 'slug', description: messages.taken('slug') }]);
      throw error;
    }
    return { tenant, domains };
  }
}
