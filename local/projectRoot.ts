import { fileURLToPath } from 'node:url';

/** The project's root folder (where package.json and cdk.json are), whatever the working directory. */
export const LOCAL_PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
