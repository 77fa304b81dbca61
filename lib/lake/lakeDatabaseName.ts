/** Glue keeps at most this many characters of a database name. */
const GLUE_NAME_MAX_CHARS = 255;
/** When a deployment's name has no letter or digit to keep (it never does: stack names start with a letter). */
const FALLBACK_NAME = 'openweb_exports';

/**
 * The catalog database of a deployment that names none: its name (the stack's name, which is
 * also its Athena workgroup's) in lower case, each run of other characters an underscore, so two
 * stacks in one account and region get two databases and Athena reads the name unquoted
 * (`OpenWebExports-staging` → `openwebexports_staging`).
 */
export function lakeDatabaseNameFor(deploymentName: string): string {
  const words = deploymentName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (words === '') return FALLBACK_NAME;
  // Athena wants a name that starts with a letter unquoted; a stack's name always does.
  const name = /^[a-z]/.test(words) ? words : `${FALLBACK_NAME}_${words}`;
  return name.slice(0, GLUE_NAME_MAX_CHARS).replace(/_+$/, '');
}
