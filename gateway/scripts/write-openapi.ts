/**
 * `npm run openapi`: writes the gateway's OpenAPI document to the path given (the typed client's
 * copy, libs/api-client/openapi.json), exactly as `GET /api/openapi.json` serves it.
 */
import { writeFile } from 'node:fs/promises';
import { fetchDocument, withDocumentGateway } from './document-gateway.js';

const target = process.argv[2];
if (!target) {
  process.stderr.write('usage: write-openapi.ts <output.json>\n');
  process.exit(2);
}
const document = await withDocumentGateway(fetchDocument);
await writeFile(target, `${JSON.stringify(document, null, 2)}\n`);
