const MAX_PORT = 65_535;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
// A wildcard stands for one or more leftmost labels and needs two labels after it: `*.com` would allow too much.
const DOWNLOAD_HOST = new RegExp(`^(?:\\*\\.(?=${LABEL}\\.))?${LABEL}(?:\\.${LABEL})*(?::(\\d{1,5}))?$`);

/** Whether `entry` is a download host allow-list entry: `host`, `host:port` or `*.domain.tld`, in lower case. */
export function isDownloadHostEntry(entry: string): boolean {
  const match = DOWNLOAD_HOST.exec(entry);
  return match !== null && (match[1] === undefined || Number(match[1]) <= MAX_PORT);
}
