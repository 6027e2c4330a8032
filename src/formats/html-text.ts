// Text written into HTML: every character that could open a tag, an entity or end an attribute
// replaced by its entity. One function for the payee page, the panel and the emails, so a page
// and a mail escape alike.

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
