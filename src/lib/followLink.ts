/**
 * Has the browser follow a download link (same origin, signed, no session needed), so the file
 * streams straight to the download rather than through the page's memory.
 */
export function followDownloadLink(url: string): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = '';
  anchor.click();
}
