import { Schema, type Connection, type Model } from 'mongoose';

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

export class TenantRepository {
  readonly tenants: Model<TenantDocument>;
  readonly domains: Model<TenantDomainDocument>;

  constructor(connection: Connection) {
    this.tenants = connection.model<TenantDocument>('Tenant', tenantSchema);
    this.domains = connection.model<TenantDomainDocument>('TenantDomain', domainSchema);
  }

  async findByHost(
    host: string,
  ): Promise<{ tenant: TenantDocument; domains: string[] } | undefined> {
    const domain = await this.domains.findOne({ domain: host }).lean();
    if (!domain) return undefined;
    return this.findById(domain.tenant_id);
  }

  async findById(
    tenantId: string,
  ): Promise<{ tenant: TenantDocument; domains: string[] } | undefined> {
    const tenant = await this.tenants.findOne({ tenant_id: tenantId }).lean();
    if (!tenant) return undefined;
    const domains = await this.domains.find({ tenant_id: tenantId }).sort({ domain: 1 }).lean();
    return { tenant, domains: domains.map((row) => row.domain) };
  }

  async findBySlug(
    slug: string,
  ): Promise<{ tenant: TenantDocument; domains: string[] } | undefined> {
    const tenant = await this.tenants.findOne({ slug }).lean();
    return tenant ? this.findById(tenant.tenant_id) : undefined;
  }
}
