import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIGURATION_PAGE_FILE, renderConfigurationPage } from './configurationPage';
import { PROJECT_ROOT } from './ExportFunction';

// `npm run docs:config`: rewrites the committed page from the settings table; `npm test` fails while it is stale.
writeFileSync(join(PROJECT_ROOT, CONFIGURATION_PAGE_FILE), renderConfigurationPage());
console.log(`Wrote ${CONFIGURATION_PAGE_FILE}`);
