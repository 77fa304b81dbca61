import { createOpenWebExportsApp } from './openWebExportsApp';
import { StackConfigError } from './stackConfig';

// The CLI runs this file (cdk.json "app"); the app synthesizes itself when the process ends.
try {
  createOpenWebExportsApp();
} catch (error) {
  if (!(error instanceof StackConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
