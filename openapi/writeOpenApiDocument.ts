import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_DOCUMENT_FILE, openApiDocumentText, PROJECT_ROOT } from './openApiDocument';

// `npm run openapi`: regenerates the committed document; `npm test` fails while it is stale.
const target = join(PROJECT_ROOT, OPENAPI_DOCUMENT_FILE);
writeFileSync(target, openApiDocumentText());
console.log(`Wrote ${OPENAPI_DOCUMENT_FILE}`);
