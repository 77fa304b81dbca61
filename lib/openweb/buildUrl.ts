/** `baseUrl` joined with `path` (not resolved: a base URL with a path prefix keeps it), with the defined query values. */
export function buildUrl(
  baseUrl: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const search = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return `${baseUrl.replace(/\/+$/, '')}${path}${search === '' ? '' : `?${search}`}`;
}
