import { Schema, type Connection, type Model } from 'mongoose';
import { nextSequence } from '@inventory/platform';

export interface TenantDocument {
  tenant_id: string;
  slug: string;
  name: string;
  created_at: Date;
}

export interface TenantDomainDocument {
  domain: string;
  tenant_id: string;
}

/** A tenant with the host names it answers on, sorted. */
export interface TenantWithDomains {
  tenant: TenantDocument;
  domains: string[];
}

const tenantSchema = new Schema<TenantDocument>(
  {
    tenant_id: { type: String, required: true, unique: true },
    slug: { type: String, required: true, unique: true },
    name: { type: String, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'tenants' },
);

// One row per host name: a host belongs to exactly one tenant.
const domainSchema = new Schema<TenantDomainDocument>(
  {
    domain: { type: String, required: true, unique: true },
    tenant_id: { type: String, required: true, index: true },
  },
  { versionKey: false, collection: 'tenant_domains' },
);

/**
 * Tenants and their domains: the one tenantless store (it is how a request finds
 * its tenant), so it does not build on the tenant-scoped base.
 */
export class TenantRepository {
  private readonly tenants: Model<TenantDocument>;
  private readonly domains: Model<TenantDomainDocument>;

  constructor(private readonly connection: Connection) {
    this.tenants = connection.model<TenantDocument>('Tenant', tenantSchema);
    this.domains = connection.model<TenantDomainDocument>('TenantDomain', domainSchema);
  }

  async nextId(): Promise<string> {
    return String(await nextSequence(this.connection, 'tenants'));
  }

  async slugTaken(slug: string): Promise<boolean> {
    return (await this.tenants.exists({ slug })) !== null;
  }

  /** The first of `domains` some tenant already answers on. */
  async findTakenDomain(domains: string[]): Promise<string | undefined> {
    return (await this.domains.findOne({ domain: { $in: domains } }).lean())?.domain;
  }

  /**
   * The tenant and its domains, or nothing: should a write fail (a race lost for
   * the slug or a domain: a duplicate-key error, rethrown), what was written is removed.
   */
  async create(tenant: TenantDocument, domains: string[]): Promise<void> {
    try {
      await this.tenants.create(tenant);
      await this.domains.insertMany(
        domains.map((domain) => ({ domain, tenant_id: tenant.tenant_id })),
      );
    } catch (error) {
      await this.tenants.deleteOne({ tenant_id: tenant.tenant_id });
      await this.domains.deleteMany({ tenant_id: tenant.tenant_id });
      throw error;
    }
  }

  async findByHost(host: string): Promise<TenantWithDomains | undefined> {
    const domain = await this.domains.findOne({ domain: host }).lean();
    if (!domain) return undefined;
    return this.findById(domain.tenant_id);
  }

  async findById(tenantId: string): Promise<TenantWithDomains | undefined> {
    const tenant = await this.tenants.findOne({ tenant_id: tenantId }).lean();
    if (!tenant) return undefined;
    const domains = await this.domains.find({ tenant_id: tenantId }).sort({ domain: 1 }).lean();
    return { tenant, domains: domains.map((row) => row.domain) };
  }

  /** Every tenant with its domains, by slug: for operators (`npm run admin -- list-tenants`). */
  async list(): Promise<TenantWithDomains[]> {
    const [tenants, domains] = await Promise.all([
      this.tenants.find().sort({ slug: 1 }).lean(),
      this.domains.find().sort({ domain: 1 }).lean(),
    ]);
    const byTenant = new Map<string, string[]>();
    for (const row of domains)
      byTenant.set(row.tenant_id, [...(byTenant.get(row.tenant_id) ?? []), row.domain]);
    return tenants.map((tenant) => ({ tenant, domains: byTenant.get(tenant.tenant_id) ?? [] }));
  }

  async findBySlug(slug: string): Promise<TenantWithDomains | undefined> {
    const tenant = await this.tenants.findOne({ slug }).lean();
    return tenant ? this.findById(tenant.tenant_id) : undefined;
  }
}
