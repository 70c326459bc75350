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

/** The `tenants` collection's one model on a connection (kept private by `TenantRepository`). */
export function tenantModel(connection: Connection): Model<TenantDocument> {
  return connection.model<TenantDocument>('Tenant', tenantSchema);
}

/**
 * The `tenant_domains` collection's one model: a tenant's host names, written and read with the
 * tenant by `TenantRepository` (a tenant and its domains are created, or removed, together).
 */
export function tenantDomainModel(connection: Connection): Model<TenantDomainDocument> {
  return connection.model<TenantDomainDocument>('TenantDomain', domainSchema);
}
