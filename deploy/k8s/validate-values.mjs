// Validates merged chart values (JSON) against deploy/k8s/values.schema.json, as Helm does at
// install, upgrade and template time:  node deploy/k8s/validate-values.mjs VALUES.json
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';

const schema = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'values.schema.json'), 'utf8'),
);
const values = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
if (!validate(values)) {
  console.error('values do not match values.schema.json:');
  for (const error of validate.errors)
    console.error(
      `  - ${error.instancePath || '/'} ${error.message}${
        error.params?.additionalProperty ? `: "${error.params.additionalProperty}"` : ''
      }`,
    );
  process.exit(1);
}
console.log('values match values.schema.json');
