/** Hands `blob` to the browser as a download named `name`: its object URL on a temporary `<a download>`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  // In the document while clicked: some browsers ignore a click on a detached link.
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked once this task ends: the browser has taken the file by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
