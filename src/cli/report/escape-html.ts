// Everything a journal holds is untrusted: a message may say `</script>`, a name
// may be `javascript:alert(1)`, an id may close an attribute. Text goes through
// `escapeHtml` and nothing else; the page builds its own ids and links from
// numbers, never from journal text.

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe in an element's content and in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]);
}
