/** What the product listing sorts by (`GET /api/v2/products`). */
export const PRODUCT_SORTS = ['id', 'sku', 'name', 'created_at', 'updated_at'] as const;
/** What the purchase-invoice listing sorts by (`GET /api/purchase-invoices`). */
export const PURCHASE_INVOICE_SORTS = ['created_at', 'due_date', 'total'] as const;
