/** Text made safe to place in HTML, in an element or a quoted attribute (both quote marks escaped). */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
