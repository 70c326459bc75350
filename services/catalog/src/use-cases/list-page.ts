import { validationFailed, type FieldViolation } from '@inventory/platform';
import { pageInfo, type PageAndSort, type PageInfo } from '../domain/list-query.js';

/** What one listing of the catalog is made of: its query rules and its repository read. */
export interface Listing<Input, Query extends PageAndSort<string>, Read extends ReadPage> {
  toQuery(input: Input): { query: Query } | { violations: FieldViolation[] };
  read(tenantId: string, query: Query): Promise<Read>;
}

/** A repository's page: the rows, the count matching, and whatever else the list answers. */
export interface ReadPage {
  rows: unknown[];
  total: number;
}

/** The page as the handlers present it: the count becomes the flat pagination envelope. */
export type ListedPage<Read extends ReadPage> = Omit<Read, 'total'> & { page: PageInfo };

/**
 * The shape every catalog listing shares: validate the query (a 422's field violations), read
 * one page of the tenant's rows, and say where the page stands. A listing adds only its
 * definition (list-products.ts, list-purchase-invoices.ts).
 */
export class ListPage<Input, Query extends PageAndSort<string>, Read extends ReadPage> {
  constructor(private readonly listing: Listing<Input, Query, Read>) {}

  async execute(tenantId: string, input: Input): Promise<ListedPage<Read>> {
    const checked = this.listing.toQuery(input);
    if ('violations' in checked) throw validationFailed(checked.violations);
    const { query } = checked;
    const read = await this.listing.read(tenantId, query);
    const { total, ...rest } = read;
    return { ...rest, page: pageInfo(query.page, query.perPage, total, read.rows.length) };
  }
}
