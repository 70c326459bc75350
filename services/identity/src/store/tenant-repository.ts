import type { Connection, Model } from 'mongoose';
import { nextSequence } from '@inventory/platform';
import {
  tenantDomainModel,
  tenantModel,
  type TenantDocument,
  type TenantDomainDocument,
  type TenantWithDomains,
} from './tenant.js';

/**
 * Tenants and their domains: the one tenantless store (it is how a request finds
 * its tenant), so it does not build on the tenant-scoped base.
 */
export class TenantRepository {
  private readonly tenants: Model<TenantDocument>;
  private readonly domains: Model<TenantDomainDocument>;

  constructor(private readonly connection: Connection) {
    this.tenants = tenantModel(connection);
    this.domains = tenantDomainModel(connection);
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
