import type { Tenant } from '@inventory/contracts/identity/v1/identity.js';
import { isDuplicateKeyError, nextSequence, validationFailed } from '@inventory/platform';
import { messages, Violations } from '../domain/validation.js';
import type { UseCaseDeps } from './deps.js';
import { presentTenant } from './present.js';

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{1,63}$/;

export interface CreateTenantInput {
  slug: string;
  name?: string;
  customDomains?: string[];
}

/** A tenant answers on <slug>.<BASE_DOMAIN> and on each of its custom domains. */
export class CreateTenant {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(input: CreateTenantInput): Promise<Tenant> {
    const violations = new Violations();
    const slug = input.slug.trim().toLowerCase();
    if (!slug) violations.add('slug', messages.required('slug'));
    else if (!SLUG.test(slug)) violations.add('slug', messages.format('slug'));
    const domains = [`${slug}.${this.deps.settings.baseDomain}`.toLowerCase()];
    (input.customDomains ?? []).forEach((domain, index) => {
      const host = domain.trim().toLowerCase();
      if (!HOST.test(host))
        violations.add(`custom_domains.${index}`, messages.format(`custom_domains.${index}`));
      else if (!domains.includes(host)) domains.push(host);
    });
    if (!violations.empty) throw validationFailed(violations.list);

    const { tenants, domains: domainRows } = this.deps.store.tenants;
    if (await tenants.exists({ slug }))
      throw validationFailed([{ field: 'slug', description: messages.taken('slug') }]);
    const taken = await domainRows.findOne({ domain: { $in: domains } }).lean();
    if (taken)
      throw validationFailed([
        {
          field: 'custom_domains',
          description: `The domain ${taken.domain} has already been taken.`,
        },
      ]);

    const tenantId = String(await nextSequence(this.deps.store.connection, 'tenants'));
    const tenant = {
      tenant_id: tenantId,
      slug,
      name: input.name?.trim() || slug,
      created_at: new Date(),
    };
    try {
      await tenants.create(tenant);
      await domainRows.insertMany(domains.map((domain) => ({ domain, tenant_id: tenantId })));
    } catch (error) {
      // Lost a race for the slug or a domain: leave nothing half-made behind.
      await tenants.deleteOne({ tenant_id: tenantId });
      await domainRows.deleteMany({ tenant_id: tenantId });
      if (isDuplicateKeyError(error))
        throw validationFailed([{ field: 'slug', description: messages.taken('slug') }]);
      throw error;
    }
    return presentTenant(tenant, domains);
  }
}
